package dev.sluice.ctld.control;

import static dev.sluice.ctld.Builders.aJob;
import static dev.sluice.ctld.Refusals.refusal;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import dev.sluice.common.slurm.PartitionState;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.ControlHarness;
import dev.sluice.ctld.loop.SoftState;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobChange;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.Partition;
import dev.sluice.ctld.state.PartitionChange;
import dev.sluice.ctld.state.StateRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code scontrol update JobId=...} and {@code PartitionName=...} as pure decisions, with the
 * answers real Slurm 22.05 gave for the same cases (compat scenarios 063, 064, 065, 069).
 */
class TestJobUpdate {
    private static final long NOW = 1_000_000;
    private static final Caller ROOT = Caller.of(0, 0, "root");
    private static final Caller OWNER = Caller.of(1000, 1000, "user1000");
    private static final Caller OTHER = Caller.of(1001, 1001, "bob");

    /** Partition p: two nodes, MaxTime 60 minutes. */
    private final ClusterState state = ClusterFixture.aCluster()
            .nodes(2)
            .partitions(names -> List.of(Partition.builder("p")
                    .nodes(names)
                    .isDefault(true)
                    .limits(new Partition.Limits(60, JobRequest.TIME_NOT_SET, Partition.NODES_UNLIMITED, 0))
                    .build()))
            .configured();

    private final ControlHarness harness = new ControlHarness();

    /** A job of uid 1000 with a 10-minute limit; running on n1 when {@code running}. */
    private int job(JobRequest request, boolean running) {
        int id = state.nextJobId();
        harness.replay(state, new StateRecord.JobSubmitted(id, request, "p", 10, NOW - 1000));
        if (running) {
            harness.replay(
                    state,
                    new StateRecord.JobStarted(
                            id, new Allocation(List.of(Allocation.NodeShare.of("n1", 1, 0, 1))), "p", 10, NOW - 100));
        }
        return id;
    }

    private int job(boolean running) {
        return job(aJob().uid(1000).build(), running);
    }

    private Job update(Caller caller, int id, JobChange... changes) {
        harness.replayRecords(state, JobUpdate.update(state, caller, Integer.toString(id), List.of(changes), NOW));
        return state.job(id);
    }

    @Test
    void aFinishedJobIsRefusedBeforeAskingWhoseItIs() {
        int id = job(true);
        harness.replay(state, StateRecord.JobEnded.unrequested(id, JobState.COMPLETED, 0, JobReason.NONE, NOW));
        assertThat(refusal(() -> update(OTHER, id, new JobChange.Name("x")))).isEqualTo(ErrorCode.JOB_FINISHED);
        int pending = job(false);
        assertThat(refusal(() -> update(OTHER, pending, new JobChange.Priority(1))))
                .isEqualTo(ErrorCode.USER_ID_MISSING);
    }

    @Test
    void usersLowerTheirLimitAndRaiseItOnlyWhilePendingUpToTheMaxTime() {
        int pending = job(false);
        assertThat(update(OWNER, pending, new JobChange.TimeLimit(5)).terms().timeLimitMinutes())
                .isEqualTo(5);
        assertThat(update(OWNER, pending, new JobChange.TimeLimit(60)).terms().timeLimitMinutes())
                .isEqualTo(60);
        assertThat(refusal(() -> update(OWNER, pending, new JobChange.TimeLimit(90))))
                .isEqualTo(ErrorCode.ACCESS_DENIED);
        int running = job(true);
        assertThat(update(OWNER, running, new JobChange.TimeLimit(5)).terms().timeLimitMinutes())
                .isEqualTo(5);
        assertThat(refusal(() -> update(OWNER, running, new JobChange.TimeLimit(6))))
                .isEqualTo(ErrorCode.ACCESS_DENIED);
        Job raised = update(ROOT, running, new JobChange.TimeLimit(120), new JobChange.Name("renamed"));
        assertThat(raised.terms().timeLimitMinutes()).isEqualTo(120);
        assertThat(raised.request().name()).isEqualTo("renamed");
        assertThat(raised.status().state()).isEqualTo(JobState.RUNNING);
    }

    @Test
    void aNodeCountSetsTheLeastAndARangeBoth() {
        int id = job(aJob().uid(1000).tasks(2).build(), false);
        Job two = update(ROOT, id, new JobChange.MinNodes(2));
        assertThat(two.request().size().minNodes()).isEqualTo(2);
        Job range = update(ROOT, id, new JobChange.MinNodes(1), new JobChange.MaxNodes(2));
        assertThat(range.request().size().minNodes()).isEqualTo(1);
        assertThat(range.request().size().maxNodes()).isEqualTo(2);
        // NumNodes=3 keeps the most, 2: the least may not pass it.
        assertThat(refusal(() -> update(ROOT, id, new JobChange.MinNodes(3)))).isEqualTo(ErrorCode.INVALID_NODE_COUNT);
        assertThat(update(ROOT, id, new JobChange.Tasks(3)).request().size().numTasks())
                .isEqualTo(3);
        int running = job(true);
        assertThat(refusal(() -> update(ROOT, running, new JobChange.MinNodes(2))))
                .isEqualTo(ErrorCode.NOT_SUPPORTED);
        assertThat(refusal(() -> update(ROOT, running, new JobChange.Tasks(2)))).isEqualTo(ErrorCode.JOB_NOT_PENDING);
    }

    @Test
    void aPartitionMustExistAndTheSameOneIsNoChange() {
        int id = job(false);
        assertThat(refusal(() -> update(ROOT, id, new JobChange.PartitionName("nosuch"))))
                .isEqualTo(ErrorCode.INVALID_PARTITION_NAME);
        int running = job(true);
        assertThat(JobUpdate.update(
                                state, ROOT, Integer.toString(running), List.of(new JobChange.PartitionName("p")), NOW)
                        .records())
                .isEmpty();
    }

    @Test
    void priorityZeroHoldsAndAFixedPriorityOverridesNice() {
        int id = job(false);
        Job fixed = update(ROOT, id, new JobChange.Priority(1000));
        assertThat(fixed.terms().adminPriority()).isEqualTo(1000);
        assertThat(update(ROOT, id, new JobChange.Nice(100)).request().nice()).isZero();
        assertThat(update(ROOT, id, new JobChange.Priority(0)).terms().hold()).isEqualTo(Job.Hold.ADMIN);
        assertThat(refusal(() -> update(ROOT, id, new JobChange.Priority(5)))).isEqualTo(ErrorCode.JOB_HELD);
        // Released, the job's priority is computed again.
        harness.replay(state, new StateRecord.JobHoldChanged(id, Job.Hold.NONE, NOW));
        assertThat(state.job(id).terms().adminPriority()).isZero();
        int own = job(false);
        assertThat(update(OWNER, own, new JobChange.Priority(0)).terms().hold()).isEqualTo(Job.Hold.USER);
        int other = job(false);
        assertThat(refusal(() -> update(OWNER, other, new JobChange.Priority(4294967000L))))
                .isEqualTo(ErrorCode.ACCESS_DENIED);
        assertThat(refusal(() -> update(OWNER, other, new JobChange.Nice(-5)))).isEqualTo(ErrorCode.ACCESS_DENIED);
        assertThat(update(OWNER, other, new JobChange.Nice(5)).request().nice()).isEqualTo(5);
    }

    @Test
    void onlyOperatorsChangeAPartitionThatExists() {
        List<PartitionChange> down = List.of(new PartitionChange.State(PartitionState.DOWN));
        assertThat(refusal(() -> PartitionControl.update(state, OWNER, "p", down)))
                .isEqualTo(ErrorCode.USER_ID_MISSING);
        assertThat(refusal(() -> PartitionControl.update(state, ROOT, "nosuch", down)))
                .isEqualTo(ErrorCode.INVALID_PARTITION_NAME);
        ControlResult<Void> r = PartitionControl.update(
                state,
                ROOT,
                "p",
                List.of(new PartitionChange.State(PartitionState.DRAIN), new PartitionChange.MaxTime(30)));
        assertThat(r.records()).isEmpty();
        r.softChanges().forEach(c -> SoftState.apply(state, c));
        Partition p = state.partitions().get(0);
        assertThat(p.state()).isEqualTo(PartitionState.DRAIN);
        assertThat(p.limits().maxTimeMinutes()).isEqualTo(30);
        assertThat(p.nodes()).containsExactly("n1", "n2");
    }

    @Test
    void aCancelledPendingJobKeepsWhatItWaitedFor() {
        int held = job(aJob().uid(1000).hold().build(), false);
        JobControl jobs = JobControl.builder(dev.sluice.ctld.sched.Scheduler.SelectDefaults.DEFAULT)
                .build();
        harness.replayRecords(state, jobs.signal(state, OWNER, Integer.toString(held), 9, true, false, NOW));
        assertThat(state.job(held).status().state()).isEqualTo(JobState.CANCELLED);
        assertThat(state.job(held).status().reason()).isEqualTo(JobReason.JOB_HELD_USER);
    }

    @Test
    void licensesOfAPendingJobChangeAndAreJournaled() {
        int pending = job(false);
        var foo = new JobChange.LicenseList(dev.sluice.common.slurm.Licenses.parse("foo:2,bar"));
        assertThat(update(OWNER, pending, foo).request().licenses().toString()).isEqualTo("foo:2,bar");
    }

    /** Slurm 22.05 (compat scenario 174): root changed a running job's foo:4 to foo:1. */
    @Test
    void anOperatorChangesARunningJobsLicensesItsOwnerMayOnlyDropThem() {
        var foo = new JobChange.LicenseList(dev.sluice.common.slurm.Licenses.parse("foo:1"));
        var none = new JobChange.LicenseList(dev.sluice.common.slurm.Licenses.NONE);
        int running = job(aJob().uid(1000).licenses("foo:4").build(), true);
        assertThat(refusal(() -> update(OWNER, running, foo))).isEqualTo(ErrorCode.JOB_NOT_PENDING);
        assertThat(state.job(running).request().licenses().toString()).isEqualTo("foo:4");
        assertThat(update(ROOT, running, foo).request().licenses().toString()).isEqualTo("foo:1");
        assertThat(update(OWNER, running, none).request().licenses().isEmpty()).isTrue();
    }
}
