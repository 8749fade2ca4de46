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
        // 22.05 lists a QOS's MaxTRESPerNode=mem=1000,gres/gpu=1 as gres/gpu=1,mem=1000M.
        assertThat(TresLimitText.merge(null, "mem=1000,gres/gpu=1")).isEqualTo("gres/gpu=1,mem=1000M");
        assertThat(TresLimitText.merge("gres/gpu=1,mem=1000M", "cpu=3,node=1"))
                .isEqualTo("cpu=3,gres/gpu=1,mem=1000M,node=1");
        // Seen on 22.05: GrpTRES=gres/gpu=1,cpu=2,mem=5 is listed cpu=2,gres/gpu=1,mem=5M.
        assertThat(TresLimitText.merge("cpu=4", "gres/gpu=2,mem=4096")).isEqualTo("cpu=4,gres/gpu=2,mem=4G");
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
