package dev.sluice.ctld.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The QOS factor of priority/multifactor: QOS Priority over the largest QOS Priority. */
class TestQosPriorities {
    private final QosPriorities table = new QosPriorities(Map.of("normal", 10L, "debug", 40L, "urgent", 100L));

    @Test
    void factorIsPriorityOverTheLargest() {
        assertThat(table.factor("urgent")).isEqualTo(1.0);
        assertThat(table.factor("debug")).isEqualTo(0.4);
        assertThat(table.factor("normal")).isEqualTo(0.1);
    }

    @Test
    void noQosMeansTheDefaultQosNormal() {
        assertThat(table.factor("")).isEqualTo(0.1);
        assertThat(table.factor(null)).isEqualTo(0.1);
    }

    @Test
    void unknownQosAndAllZeroTableGiveZero() {
        assertThat(table.factor("nosuch")).isZero();
        assertThat(QosPriorities.DEFAULT.factor("normal")).isZero();
        assertThat(QosPriorities.DEFAULT.factor("")).isZero();
    }

    @Test
    void negativePrioritiesAreRefused() {
        assertThatThrownBy(() -> new QosPriorities(Map.of("bad", -1L))).isInstanceOf(IllegalArgumentException.class);
    }
}
