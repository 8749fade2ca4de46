package dev.sluice.packaging.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.sluice.ctld.state.Allocation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** Replays through the real scheduler: hand-checked small traces, invariants, determinism. */
class TestWorkloadReplay {
    private static SwfJob job(long number, long submit, long run, long procs, long requested) {
        return new SwfJob(number, submit, -1, run, procs, -1, -1, procs, requested, -1, 1, 1, 1, -1, 1, 1, -1, -1);
    }

    private static ReplayResult replay(int nodes, int cpus, List<SwfJob> trace) throws Exception {
        return new WorkloadReplay(ReplaySite.config(nodes, cpus, 0), 0).run(trace);
    }

    /**
     * 2 nodes x 4 CPUs. Job 1 (4 CPUs, 100 s, limit 2 min) starts at once; job 2 (8 CPUs) must wait
     * for it and gets a reservation at its limit, t=120; job 3 (4 CPUs, 50 s, limit 1 min) ends
     * before that, so backfill starts it at t=2; job 2 starts when job 1 ends at t=100.
     */
    @Test
    void backfillStartsAShortJobAroundABlockedWideOne() throws Exception {
        ReplayResult result =
                replay(2, 4, List.of(job(1, 0, 100, 4, 120), job(2, 1, 100, 8, 120), job(3, 2, 50, 4, 60)));

        Map<Long, JobOutcome> byJob = new HashMap<>();
        result.outcomes().forEach(o -> byJob.put(o.jobNumber(), o));
        assertThat(byJob.get(1L).start()).isZero();
        assertThat(byJob.get(1L).backfilled()).isFalse();
        assertThat(byJob.get(3L).start()).isEqualTo(2);
        assertThat(byJob.get(3L).backfilled()).isTrue();
        assertThat(byJob.get(2L).start()).isEqualTo(100);
        assertThat(byJob.get(2L).backfilled()).isFalse();

        // By hand: makespan 200 s; (4x100 + 8x100 + 4x50) / (8 x 200) CPU-s; waits 0, 99, 0;
        // slowdowns 1, 199/100, 1.
        ReplayReport report = ReplayReport.of(result);
        assertThat(report.makespan()).isEqualTo(200);
        assertThat(report.utilisation()).isCloseTo(0.875, within(1e-9));
        assertThat(report.meanWait()).isCloseTo(33.0, within(1e-9));
        assertThat(report.medianWait()).isZero();
        assertThat(report.p95Wait()).isEqualTo(99);
        assertThat(report.boundedSlowdown()).isCloseTo(3.99 / 3, within(1e-9));
        assertThat(report.backfillStarts()).isEqualTo(1);
        assertThat(report.mainStarts()).isEqualTo(2);
    }

    @Test
    void aJobIsKilledAtItsTimeLimit() throws Exception {
        // Asked for 61 s: Slurm's limit is in minutes, so 2 minutes.
        ReplayResult result = replay(1, 4, List.of(job(1, 0, 500, 2, 61), job(2, 0, 30, 2, 60)));

        JobOutcome killed = result.outcomes().stream()
                .filter(o -> o.jobNumber() == 1)
                .findFirst()
                .orElseThrow();
        assertThat(killed.end()).isEqualTo(120);
        assertThat(killed.timedOut()).isTrue();
        assertThat(ReplayReport.of(result).timedOut()).isEqualTo(1);
    }

    @Test
    void aJobLargerThanTheClusterIsRefusedAsSbatchWouldAndTheRestRuns() throws Exception {
        ReplayResult result = replay(2, 4, List.of(job(1, 0, 10, 9, 60), job(2, 0, -1, 2, 60), job(3, 0, 10, 8, 60)));

        assertThat(result.refused()).containsExactly("job 1: More processors requested than permitted");
        assertThat(result.skipped()).isEqualTo(1);
        assertThat(result.outcomes()).extracting(JobOutcome::jobNumber).containsExactly(3L);
    }

    @Test
    void gpusAreAskedInProportionToProcessorsAndCounted() throws Exception {
        // 2 nodes x 4 CPUs x 2 GPUs: a 4-processor job asks --gpus=2, so four of them run two at a time.
        List<SwfJob> trace = List.of(job(1, 0, 100, 4, 120), job(2, 0, 100, 4, 120), job(3, 0, 100, 1, 120));
        ReplayResult result = new WorkloadReplay(ReplaySite.config(2, 4, 2), 0.5).run(trace);

        assertThat(result.outcomes())
                .allSatisfy(o -> assertThat(o.shares().stream()
                                .mapToLong(s -> s.gresCount("gpu"))
                                .sum())
                        .isEqualTo(o.cpus() == 4 ? 2 : 1));
        assertThat(result.outcomes())
                .filteredOn(o -> o.jobNumber() == 3)
                .singleElement()
                .satisfies(o -> assertThat(o.start()).isEqualTo(100));
    }

    @Property(tries = 12)
    void replayKeepsTheClusterWithinItsCpusAndTime(
            @ForAll @IntRange(min = 1, max = 1_000_000) int seed, @ForAll @IntRange(min = 2, max = 6) int nodes)
            throws Exception {
        int cpus = 8;
        List<SwfJob> trace = WorkloadGenerator.generate(60, (long) nodes * cpus, 1.2, seed);
        ReplayResult result = replay(nodes, cpus, trace);
        ReplayReport report = ReplayReport.of(result);

        assertThat(result.outcomes().size() + result.refused().size() + result.skipped() + result.neverStarted())
                .isEqualTo(trace.size());
        assertThat(report.utilisation()).isBetween(0.0, 1.0);
        assertThat(report.mainStarts() + report.backfillStarts())
                .isEqualTo(result.outcomes().size());
        Map<Long, SwfJob> asked = new HashMap<>();
        trace.forEach(j -> asked.put(j.jobNumber(), j));
        for (JobOutcome o : result.outcomes()) {
            SwfJob j = asked.get(o.jobNumber());
            assertThat(o.start()).isGreaterThanOrEqualTo(j.submitTime());
            assertThat(o.cpus()).isGreaterThanOrEqualTo(j.processors());
            long limit = ((j.requestedTime() + 59) / 60) * 60;
            assertThat(o.ran()).isEqualTo(Math.min(j.runTime(), limit));
            assertThat(o.timedOut()).isEqualTo(j.runTime() > limit);
        }
        // At every instant, no node holds more CPUs than it has.
        Map<String, TreeMap<Long, Long>> deltas = new HashMap<>();
        for (JobOutcome o : result.outcomes()) {
            for (Allocation.NodeShare s : o.shares()) {
                TreeMap<Long, Long> d = deltas.computeIfAbsent(s.node(), n -> new TreeMap<>());
                d.merge(o.start(), (long) s.cpus(), Long::sum);
                d.merge(o.end(), (long) -s.cpus(), Long::sum);
            }
        }
        assertThat(deltas.keySet()).allMatch(n -> n.matches("n[1-" + nodes + "]"));
        for (TreeMap<Long, Long> d : deltas.values()) {
            long inUse = 0;
            for (long delta : d.values()) {
                inUse += delta;
                assertThat(inUse).isBetween(0L, (long) cpus);
            }
        }
    }

    @Test
    void theSameTraceAndClusterGiveTheSameReportByteForByte() throws Exception {
        List<SwfJob> trace = WorkloadGenerator.generate(200, 64, 1.0, 42);
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            texts.add(ReplayReport.of(replay(8, 8, trace)).text());
        }
        // A different seed is a different trace: the report is not a constant.
        texts.add(ReplayReport.of(replay(8, 8, WorkloadGenerator.generate(200, 64, 1.0, 43)))
                .text());

        assertThat(texts.get(1)).isEqualTo(texts.get(0));
        assertThat(texts.get(2)).isNotEqualTo(texts.get(0));
        assertThat(WorkloadGenerator.generate(200, 64, 1.0, 42)).isEqualTo(trace);
    }
}
