package dev.sluice.ctld.control;

import static dev.sluice.ctld.Builders.aJob;
import static dev.sluice.ctld.Refusals.refusal;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.ControlHarness;
import dev.sluice.ctld.persistence.RecordCodec;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.Effect;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.StateRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code scontrol requeue|requeuehold|suspend|resume} as pure decisions over a state. The errors
 * are the ones real Slurm 22.05 gave for the same cases on this machine (2026-11-29).
 */
class TestJobRunControl {
    private static final long NOW = 1_000_000;
    private static final Caller ROOT = Caller.of(0, 0, "root");
    private static final Caller OWNER = Caller.of(1000, 1000, "user1000");
    private static final Caller OTHER = Caller.of(1001, 1001, "bob");

    private final ClusterState state = ClusterFixture.aCluster().configured();
    private final ControlHarness harness = new ControlHarness();

    private int job(JobRequest request, long startedAt) {
        int id = state.nextJobId();
        harness.replay(state, new StateRecord.JobSubmitted(id, request, "p", 10, NOW - 1000));
        if (startedAt > 0) {
            harness.replay(
                    state,
                    new StateRecord.JobStarted(
                            id, new Allocation(List.of(Allocation.NodeShare.of("n1", 2, 0, 1))), "p", 10, startedAt));
        }
        return id;
    }

    @Test
    void aRequeuedJobIsHeldBackForTheCredentialLifetime() {
        int id = job(aJob().requeue().build(), NOW - 100);
        ControlResult<Void> r = JobRunControl.requeue(state, OWNER, Integer.toString(id), false, 121, NOW);
        assertThat(r.records()).containsExactly(StateRecord.JobRequeued.heldBack(id, false, NOW, NOW + 121));
        harness.replayRecords(state, r);
        assertThat(state.job(id).run().eligibleTime()).isEqualTo(NOW + 121);
        assertThat(state.job(id).status().reason()).isEqualTo(JobReason.BEGIN_TIME);
        // The journal keeps it.
        assertThat(RecordCodec.decode(RecordCodec.encode(1, r.records().get(0))))
                .isEqualTo(r.records().get(0));
    }

    @Test
    void requeueKillsTheRunningJobAndQueuesItAgain() {
        int id = job(aJob().requeue().build(), NOW - 100);
        ControlResult<Void> r = JobRunControl.requeue(state, OWNER, Integer.toString(id), false, NOW);
        assertThat(r.records()).containsExactly(StateRecord.JobRequeued.at(id, false, NOW));
        assertThat(r.effects()).containsExactly(new Effect.Terminate(id, List.of("n1"), JobState.CANCELLED, 0));
        harness.replayRecords(state, r);
        Job job = state.job(id);
        assertThat(job.status().state()).isEqualTo(JobState.PENDING);
        assertThat(job.run().restartCount()).isEqualTo(1);
        assertThat(job.status().reason()).isEqualTo(JobReason.BEGIN_TIME);
        // Its CPUs are free again: the node holds nothing.
        assertThat(state.view(state.node("n1")).allocCpus()).isZero();
    }

    @Test
    void anEndedJobIsQueuedAgainWithoutAnyKill() {
        int id = job(aJob().requeue().build(), NOW - 100);
        harness.replayRecords(
                state,
                ControlResult.of(
                        List.of(StateRecord.JobEnded.unrequested(
                                id, JobState.FAILED, 3 << 8, JobReason.NON_ZERO_EXIT_CODE, NOW - 10)),
                        List.of(),
                        null));
        ControlResult<Void> r = JobRunControl.requeue(state, ROOT, Integer.toString(id), false, NOW);
        assertThat(r.effects()).isEmpty();
        harness.replayRecords(state, r);
        assertThat(state.job(id).status().state()).isEqualTo(JobState.PENDING);
    }

    @Test
    void requeueholdLeavesItHeldWithSlurmsReason() {
        int id = job(aJob().requeue().build(), NOW - 100);
        harness.replayRecords(state, JobRunControl.requeue(state, ROOT, Integer.toString(id), true, NOW));
        Job job = state.job(id);
        assertThat(job.terms().hold()).isEqualTo(Job.Hold.ADMIN);
        assertThat(state.image().reasonOf(job)).isEqualTo("job requeued in held state");
        harness.replayRecords(
                state,
                JobControl.builder(dev.sluice.ctld.sched.Scheduler.SelectDefaults.builder()
                                .build())
                        .build()
                        .hold(state, ROOT, Integer.toString(id), Job.Hold.NONE, NOW + 1));
        assertThat(state.job(id).status().reason()).isEqualTo(JobReason.NONE);
        int own = job(aJob().requeue().build(), NOW - 50);
        harness.replayRecords(state, JobRunControl.requeue(state, OWNER, Integer.toString(own), true, NOW));
        assertThat(state.job(own).terms().hold()).isEqualTo(Job.Hold.USER);
    }

    @Test
    void requeueRefusalsChangeNothing() {
        int pending = job(aJob().requeue().build(), 0);
        int allocation = job(aJob().requeue().script("").build(), NOW - 10);
        int running = job(aJob().requeue().build(), NOW - 10);
        int noRequeue = job(aJob().build(), NOW - 10);
        assertThat(refusal(() -> JobRunControl.requeue(state, ROOT, "" + pending, false, NOW)))
                .isEqualTo(ErrorCode.JOB_PENDING);
        assertThat(refusal(() -> JobRunControl.requeue(state, OTHER, "" + running, false, NOW)))
                .isEqualTo(ErrorCode.ACCESS_DENIED);
        assertThat(refusal(() -> JobRunControl.requeue(state, ROOT, "99", false, NOW)))
                .isEqualTo(ErrorCode.INVALID_JOB_ID);
        assertThat(refusal(() -> JobRunControl.requeue(state, ROOT, "" + allocation, false, NOW)))
                .isEqualTo(ErrorCode.BATCH_ONLY);
        // sbatch --no-requeue
        assertThat(refusal(() -> JobRunControl.requeue(state, ROOT, "" + noRequeue, false, NOW)))
                .isEqualTo(ErrorCode.DISABLED);
        assertThat(state.job(running).status().state()).isEqualTo(JobState.RUNNING);
        assertThat(state.job(noRequeue).run().restartCount()).isZero();
    }

    @Test
    void suspendStopsTheClockAndResumeRunsItOn() {
        int id = job(aJob().build(), NOW - 100);
        ControlResult<Void> s = JobRunControl.suspend(state, ROOT, "" + id, true, NOW);
        assertThat(s.records()).containsExactly(StateRecord.JobSuspendChanged.byCommand(id, true, 100, NOW));
        assertThat(s.effects()).containsExactly(new Effect.Suspend(id, List.of("n1"), true));
        harness.replayRecords(state, s);
        Job suspended = state.job(id);
        assertThat(suspended.status().state()).isEqualTo(JobState.SUSPENDED);
        assertThat(suspended.status().state().compact()).isEqualTo("S");
        assertThat(suspended.runSeconds(NOW + 500)).isEqualTo(100);
        // Resources stay allocated while suspended.
        assertThat(state.view(state.node("n1")).allocCpus()).isEqualTo(2);
        // Suspending again changes nothing (Slurm answers success).
        assertThat(JobRunControl.suspend(state, ROOT, "" + id, true, NOW + 1).records())
                .isEmpty();

        ControlResult<Void> r = JobRunControl.suspend(state, ROOT, "" + id, false, NOW + 500);
        assertThat(r.effects()).containsExactly(new Effect.Suspend(id, List.of("n1"), false));
        harness.replayRecords(state, r);
        assertThat(state.job(id).status().state()).isEqualTo(JobState.RUNNING);
        assertThat(state.job(id).runSeconds(NOW + 530)).isEqualTo(130);
        harness.replayRecords(state, JobRunControl.suspend(state, ROOT, "" + id, true, NOW + 540));
        assertThat(state.job(id).suspension().preSuspendSeconds()).isEqualTo(140);
    }

    @Test
    void suspendRefusals() {
        int pending = job(aJob().build(), 0);
        int running = job(aJob().build(), NOW - 10);
        assertThat(refusal(() -> JobRunControl.suspend(state, OWNER, "" + running, true, NOW)))
                .isEqualTo(ErrorCode.ACCESS_DENIED);
        assertThat(refusal(() -> JobRunControl.suspend(state, ROOT, "" + pending, true, NOW)))
                .isEqualTo(ErrorCode.JOB_PENDING);
        assertThat(refusal(() -> JobRunControl.suspend(state, ROOT, "" + running, false, NOW)))
                .isEqualTo(ErrorCode.JOB_NOT_SUSPENDED);
        assertThatThrownBy(() -> JobRunControl.suspend(state, ROOT, "99", true, NOW))
                .hasMessage("Unexpected message received");
        harness.replayRecords(
                state,
                ControlResult.of(
                        List.of(StateRecord.JobEnded.unrequested(running, JobState.COMPLETED, 0, JobReason.NONE, NOW)),
                        List.of(),
                        null));
        assertThat(refusal(() -> JobRunControl.suspend(state, ROOT, "" + running, true, NOW)))
                .isEqualTo(ErrorCode.ALREADY_DONE);
    }

    @Test
    void theEndOfARequeuedRunDoesNotEndTheNextRun() {
        int id = job(aJob().requeue().build(), NOW - 100);
        harness.replayRecords(state, JobRunControl.requeue(state, ROOT, "" + id, false, NOW));
        harness.replay(
                state,
                new StateRecord.JobStarted(
                        id, new Allocation(List.of(Allocation.NodeShare.of("n1", 2, 0, 1))), "p", 10, NOW + 5));
        JobControl jobs = JobControl.builder(dev.sluice.ctld.sched.Scheduler.SelectDefaults.DEFAULT)
                .build();
        ControlResult<Void> old = BatchEnds.complete(
                state, "n1", id, 0, 15, JobState.CANCELLED, BatchEnds.NodeScripts.OK, "root", NOW + 6);
        assertThat(old.records()).isEmpty();
        ControlResult<Void> current =
                BatchEnds.complete(state, "n1", id, 1, 0, null, BatchEnds.NodeScripts.OK, "root", NOW + 7);
        assertThat(current.records()).hasSize(1);
    }

    @Test
    void suspensionAndRequeueHoldSurviveTheJournalAndSnapshots() {
        int id = job(aJob().build(), NOW - 100);
        int held = job(aJob().requeue().build(), NOW - 100);
        harness.replayRecords(state, JobRunControl.suspend(state, ROOT, "" + id, true, NOW));
        harness.replayRecords(state, JobRunControl.requeue(state, ROOT, "" + held, true, NOW));
        for (StateRecord r : List.of(
                StateRecord.JobSuspendChanged.byCommand(id, true, 100, NOW),
                StateRecord.JobRequeued.at(held, true, NOW))) {
            assertThat(RecordCodec.decode(RecordCodec.encode(1, r))).isEqualTo(r);
        }
        ClusterState copy = ClusterFixture.aCluster().configured();
        long s = 0;
        for (StateRecord r : state.toRecords()) {
            copy.restore(++s, r);
        }
        assertThat(copy.job(id)).isEqualTo(state.job(id));
        assertThat(copy.job(held)).isEqualTo(state.job(held));
    }
}
