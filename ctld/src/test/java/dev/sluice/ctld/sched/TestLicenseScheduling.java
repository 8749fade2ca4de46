package dev.sluice.ctld.sched;

import static dev.sluice.ctld.Builders.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import dev.sluice.common.slurm.Licenses;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.StateRecord;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** slurm.conf's Licenses: a job waits with reason Licenses until enough are free. */
class TestLicenseScheduling {
    private static final long NOW = 1_000_000;
    private static final Licenses CONFIGURED = Licenses.configured("foo:4,bar");

    private ClusterFixture cluster;
    private ClusterState state;

    private void cluster(int nodes, int cpus) {
        cluster = ClusterFixture.idle(nodes, cpus, NOW);
        state = cluster.state();
    }

    private int submit(JobRequest request) {
        return cluster.submit(request, "p", 60, NOW - 10);
    }

    private SchedulePlan schedule() {
        Scheduler.SelectDefaults select = new Scheduler.SelectDefaults(false, 0, java.util.Set.of(), false, CONFIGURED);
        return new Scheduler(
                        SchedulerConfig.builder(select).reservationDepth(10).build())
                .schedule(state.image(), NOW);
    }

    /** Applies a plan's starts, as the controller journals them. */
    private void start(SchedulePlan plan) {
        cluster.start(plan, NOW);
    }

    private static List<Integer> started(SchedulePlan plan) {
        return plan.starts().stream().map(SchedulePlan.Start::jobId).toList();
    }

    @Test
    void aJobWaitsForLicensesHeldByRunningJobsAndStartsWhenTheyAreFreed() {
        cluster(4, 4);
        int first = submit(aJob().licenses("foo:3").build());
        int second = submit(aJob().licenses("foo:2").build());
        int other = submit(aJob().licenses("bar").build());

        SchedulePlan plan = schedule();
        assertThat(started(plan)).containsExactly(first, other);
        assertThat(plan.pendingReasons()).containsEntry(second, JobReason.LICENSES);
        start(plan);

        // Nothing freed: still waiting, though nodes are idle.
        SchedulePlan again = schedule();
        assertThat(started(again)).isEmpty();
        assertThat(again.pendingReasons()).containsEntry(second, JobReason.LICENSES);

        cluster.replay(StateRecord.JobEnded.unrequested(first, JobState.COMPLETED, 0, JobReason.NONE, NOW));
        assertThat(started(schedule())).containsExactly(second);
    }

    @Test
    void aJobWithoutLicensesIsNotHeldBackByOneWaitingForThem() {
        cluster(1, 4);
        int holder = submit(aJob().licenses("foo:4").build());
        start(schedule());
        int waiting = submit(aJob().licenses("foo:1").build());
        int plain = submit(aJob().build());

        SchedulePlan plan = schedule();
        assertThat(started(plan)).containsExactly(plain);
        assertThat(plan.pendingReasons()).containsEntry(waiting, JobReason.LICENSES);
        assertThat(state.job(holder).isRunning()).isTrue();
    }

    /**
     * Whatever jobs ask (each at most what is configured, as submission ensures) and however
     * passes and job ends interleave, running jobs never hold more of a license than slurm.conf
     * configures.
     */
    @Property(tries = 60)
    void licensesInUseNeverExceedTheConfiguredCount(
            @ForAll("requests") List<String> requests, @ForAll("ends") List<Integer> ends) {
        cluster(3, 8);
        for (String r : requests) {
            submit(aJob().licenses(r).build());
        }
        for (int end : ends) {
            start(schedule());
            assertWithinConfigured();
            List<Job> running =
                    state.image().jobs().stream().filter(Job::isRunning).toList();
            if (!running.isEmpty()) {
                Job done = running.get(Math.floorMod(end, running.size()));
                cluster.replay(StateRecord.JobEnded.unrequested(done.id(), JobState.COMPLETED, 0, JobReason.NONE, NOW));
            }
        }
    }

    private void assertWithinConfigured() {
        Map<String, Long> used = new HashMap<>();
        for (Job job : state.image().jobs()) {
            if (job.isRunning()) {
                job.request().licenses().counts().forEach((n, c) -> used.merge(n, c, Long::sum));
            }
        }
        used.forEach((name, count) -> assertThat(count).isLessThanOrEqualTo(CONFIGURED.count(name)));
    }

    @Provide
    Arbitrary<List<String>> requests() {
        return Arbitraries.of("foo:1", "foo:2", "foo:4", "bar", "foo:1,bar", "foo:3,bar:1", "")
                .list()
                .ofMinSize(1)
                .ofMaxSize(12);
    }

    @Provide
    Arbitrary<List<Integer>> ends() {
        return Arbitraries.integers().between(0, 20).list().ofMinSize(1).ofMaxSize(15);
    }
}
