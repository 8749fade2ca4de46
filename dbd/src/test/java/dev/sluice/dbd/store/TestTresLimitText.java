package dev.sluice.dbd.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A TRES limit changed item by item, as slurmdbd changes one (compat 195). */
class TestTresLimitText {
    @Test
    void theTresNamedChangeAndTheOthersStay() {
        assertThat(TresLimitText.merge("cpu=4,node=1", "cpu=2")).isEqualTo("cpu=2,node=1");
        assertThat(TresLimitText.merge(null, "node=1,cpu=4")).isEqualTo("cpu=4,node=1");
        assertThat(TresLimitText.merge("cpu=4", "gres/gpu=2,mem=4096")).isEqualTo("cpu=4,mem=4G,gres/gpu=2");
    }

    @Test
    void minusOneRemovesItsTresAndNothingLeftIsNoLimit() {
        assertThat(TresLimitText.merge("cpu=4,node=1", "cpu=-1")).isEqualTo("node=1");
        assertThat(TresLimitText.merge("node=1", "node=-1")).isNull();
        assertThat(TresLimitText.merge(null, "cpu=-1")).isNull();
    }

    @Test
    void aCountThatIsNoNumberIsRefused() {
        assertThatThrownBy(() -> TresLimitText.merge("cpu=1", "cpu=many")).isInstanceOf(IllegalArgumentException.class);
    }
}
