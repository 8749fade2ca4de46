package dev.sluice.dbd.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class TresCountsTest {
    private static final Map<String, Integer> IDS =
            Map.of("cpu", 1, "mem", 2, "node", 4, "billing", 5, "gres/gpu", 1001);
    private static final Map<Integer, String> NAMES =
            Map.of(1, "cpu", 2, "mem", 4, "node", 5, "billing", 1001, "gres/gpu");

    @Test
    void controllerFormRoundTripsThroughTheDatabaseFormToSacctsForm() {
        TresCounts t = TresCounts.parseNamed("cpu=2,mem=1G,node=1,billing=2,gres/gpu=3");
        assertThat(t.get("mem")).isEqualTo(1024);
        String stored = t.toIdForm(IDS::get);
        assertThat(stored).isEqualTo("1=2,2=1024,4=1,5=2,1001=3");
        assertThat(TresCounts.parseIdForm(stored, NAMES::get).toNamedForm())
                .isEqualTo("billing=2,cpu=2,gres/gpu=3,mem=1G,node=1");
    }

    @Test
    void memoryKeepsMegabytesThatAreNotWholeGigabytes() {
        assertThat(TresCounts.parseNamed("mem=1500M").toNamedForm()).isEqualTo("mem=1500M");
        assertThat(TresCounts.parseNamed("cpu=1,mem=256M").get("mem")).isEqualTo(256);
    }

    @Test
    void emptyStringsStayEmpty() {
        assertThat(TresCounts.parseNamed("").counts()).isEmpty();
        assertThat(TresCounts.parseIdForm("", NAMES::get).toNamedForm()).isEmpty();
    }

    @Test
    void unknownIdsAreShownByNumber() {
        assertThat(TresCounts.parseIdForm("1=4,77=2", NAMES::get).toNamedForm()).isEqualTo("77=2,cpu=4");
    }

    @Test
    void malformedInputIsRefused() {
        assertThatThrownBy(() -> TresCounts.parseNamed("cpu")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TresCounts.parseNamed("cpu=-1")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TresCounts.parseNamed("mem=lots")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void stepsSortBatchThenExternThenNumbers() {
        assertThat(StepOrder.compare(StepOrder.BATCH, StepOrder.EXTERN)).isNegative();
        assertThat(StepOrder.compare(StepOrder.EXTERN, 0)).isNegative();
        assertThat(StepOrder.compare(2, 10)).isNegative();
        assertThat(StepOrder.suffix(StepOrder.BATCH)).isEqualTo("batch");
        assertThat(StepOrder.suffix(3)).isEqualTo("3");
    }
}
