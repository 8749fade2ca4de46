package dev.sluice.ctld.queue;

import static dev.sluice.ctld.queue.PriorityWeightsBuilder.multifactor;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * When fair-share usage is charged, as observed on Slurm 22.05 with PriorityCalcPeriod=1
 * (compat 239): at each calculation a job is running at, for the time since its start or the
 * previous calculation; what it ran after the last calculation it saw is never charged; and
 * after a restart the jobs that ran before it keep the charge the earlier controller's clock
 * gave them.
 */
class TestUsageCharges {
    private static final long STARTED = 1_000_000;
    private static final PriorityWeights W =
            multifactor().fairshare(1000).calcPeriodSeconds(60).build().withCalcEpoch(STARTED);

    @Test
    void aJobIsChargedUpToTheLastCalculationThatFoundItRunning() {
        // Runs from 5 s to 71 s after the start: the calculation at 60 s found it running.
        assertThat(W.chargedUntil(STARTED + 5, STARTED + 71, STARTED + 70)).isEqualTo(STARTED + 60);
        assertThat(W.chargedUntil(STARTED + 5, STARTED + 71, STARTED + 200)).isEqualTo(STARTED + 60);
        // Still running: up to the last calculation.
        assertThat(W.chargedUntil(STARTED + 5, 0, STARTED + 130)).isEqualTo(STARTED + 120);
    }

    @Test
    void aJobThatEndsBetweenCalculationsIsNeverCharged() {
        assertThat(W.chargedUntil(STARTED + 5, STARTED + 8, STARTED + 300)).isEqualTo(STARTED + 5);
        // One that ends at a calculation's second was not running at it.
        assertThat(W.chargedUntil(STARTED + 5, STARTED + 60, STARTED + 300)).isEqualTo(STARTED + 5);
    }

    @Test
    void afterARestartAJobThatRanBeforeItKeepsItsCharge() {
        long restart = STARTED + 90;
        PriorityWeights after = W.withCalcEpoch(restart, List.of(STARTED));
        assertThat(after.chargedUntil(STARTED + 5, STARTED + 71, restart + 5)).isEqualTo(STARTED + 60);
        assertThat(after.chargedUntil(STARTED + 5, STARTED + 8, restart + 5)).isEqualTo(STARTED + 5);
        // One running through the restart is charged on the new controller's clock from then.
        assertThat(after.chargedUntil(STARTED + 5, 0, restart + 61)).isEqualTo(restart + 60);
        assertThat(after.chargedUntil(STARTED + 5, 0, restart + 1)).isEqualTo(restart);
    }

    @Test
    void withoutTheEarlierStartsAJobFromBeforeTheRestartIsChargedAsItRan() {
        // State from before the starts were kept: nothing lost, the run charged whole.
        PriorityWeights after = W.withCalcEpoch(STARTED + 90, List.of());
        assertThat(after.chargedUntil(STARTED + 5, STARTED + 71, STARTED + 95)).isEqualTo(STARTED + 70);
    }

    /**
     * Whatever the restart, the charge lies within the run and never shrinks as time passes.
     */
    @Property(tries = 500)
    void theChargeStaysWithinTheRunAndNeverShrinks(
            @ForAll @IntRange(min = 0, max = 400) int startAfter,
            @ForAll @IntRange(min = 1, max = 400) int runs,
            @ForAll @IntRange(min = 1, max = 500) int restartAfter,
            @ForAll boolean ends) {
        long start = STARTED + startAfter;
        long end = ends ? start + runs : 0;
        PriorityWeights before = W;
        PriorityWeights after = W.withCalcEpoch(STARTED + restartAfter, List.of(STARTED));
        long last = start;
        for (long now = start; now < STARTED + 1200; now++) {
            PriorityWeights w = now < STARTED + restartAfter ? before : after;
            long charged = w.chargedUntil(start, end, now);
            assertThat(charged).isBetween(start, end > 0 ? Math.min(end, now) : now);
            assertThat(charged).isGreaterThanOrEqualTo(last);
            last = charged;
        }
    }
}
