package dev.sluice.cli.view;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** Array index expressions as sbatch(1) {@code --array} defines them. */
class TestArrayTasks {
    @Test
    void rangesListsStepsAndThrottles() {
        assertThat(ArrayTasks.expand("3-4%2")).containsExactly(3, 4);
        assertThat(ArrayTasks.expand("0,3,7-9")).containsExactly(0, 3, 7, 8, 9);
        assertThat(ArrayTasks.expand("0-15:4")).containsExactly(0, 4, 8, 12);
        assertThat(ArrayTasks.expand("5")).containsExactly(5);
        assertThat(ArrayTasks.throttle("1-4%2")).isEqualTo(OptionalInt.of(2));
        assertThat(ArrayTasks.throttle("1-4")).isEmpty();
    }

    @Test
    void unreadableExpressionsYieldNothing() {
        assertThat(ArrayTasks.expand("x")).isEmpty();
        assertThat(ArrayTasks.expand("4-1")).isEmpty();
        assertThat(ArrayTasks.expand("1-4:0")).isEmpty();
        assertThat(ArrayTasks.expand("0-2000000000")).isEmpty();
    }
}
