package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ctld.sched.SchedulePlan;
import dev.sluice.ctld.select.PlacementResult;
import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.Job;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Each benchmark body once, at a small size, so that {@code verify} keeps the benchmarks
 * compiling and doing what they claim (the real runs are in docs/benchmarks.md).
 */
class TestBenchmarksRun {
    @Test
    void allocatorPlacesTheGpuJobOnTwoNodes() {
        AllocatorBenchmark b = new AllocatorBenchmark();
        b.nodes = 100;
        b.setUp();
        PlacementResult result = b.placeGpuJob();
        assertThat(result).isInstanceOf(PlacementResult.Placed.class);
        assertThat(((PlacementResult.Placed) result).allocation().nodes()).hasSize(2);
    }

    @Test
    void schedulingPassGivesTheDeepQueueReasonsAndReservations() {
        SchedulerBenchmark b = new SchedulerBenchmark();
        b.nodes = 50;
        b.jobs = 500;
        b.setUp();
        Set<Integer> pending =
                b.image.jobs().stream().filter(Job::isPending).map(Job::id).collect(Collectors.toSet());
        assertThat(pending).hasSizeGreaterThan(100);
        SchedulePlan plan = b.schedulingPass();
        assertThat(plan.pendingReasons().keySet()).isSubsetOf(pending);
        assertThat(plan.pendingReasons().size() + plan.starts().size()).isEqualTo(pending.size());
        assertThat(plan.expectedStarts()).isNotEmpty();
    }

    @Test
    void journalBatchIsDurableAndCompacts() throws Exception {
        JournalBenchmark b = new JournalBenchmark();
        b.batch = 64;
        b.setUp();
        try {
            assertThat(b.appendAndSync()).isEqualTo(64);
            assertThat(b.journal.hasPending()).isFalse();
            b.compact();
            assertThat(b.journal.entriesInSegment()).isZero();
        } finally {
            b.tearDown();
        }
    }

    @Test
    void imagePublicationShowsTheChangedJob() {
        ImageBenchmark b = new ImageBenchmark();
        b.nodes = 50;
        b.jobs = 500;
        b.setUp();
        ClusterImage before = b.unchanged();
        assertThat(b.unchanged().jobs()).isSameAs(before.jobs());
        ClusterImage after = b.afterJobChange();
        assertThat(after.job(b.pendingJob).orElseThrow().terms().hold())
                .isNotEqualTo(before.job(b.pendingJob).orElseThrow().terms().hold());
        assertThat(after.jobs()).hasSize(500);
    }
}
