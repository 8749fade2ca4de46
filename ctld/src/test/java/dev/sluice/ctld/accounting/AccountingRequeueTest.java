package dev.sluice.ctld.accounting;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobReplay;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.ctld.wire.WireMapper;
import dev.sluice.protocol.v1.AccountingJob;
import dev.sluice.protocol.v1.AccountingRecord;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.StepAccountingRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One accounting record per run of a requeued job (sacct -D), as Slurm 22.05 keeps them. */
class AccountingRequeueTest {
    private static final AccountingEvents.Site CORES =
            AccountingEvents.Site.withoutReservations(false, p -> 8000, id -> 0);
    private static final JobRequest REQUEST = WireMapper.toDomain(JobSpec.newBuilder()
            .setName("rq")
            .setScript(com.google.protobuf.ByteString.copyFromUtf8("#!/bin/sh\nsleep 300\n"))
            .setNumTasks(1)
            .setOwner(Identity.newBuilder().setUid(1001).setGid(100).setUserName("alice"))
            .build());
    private static final Allocation ALLOC = new Allocation(List.of(Allocation.NodeShare.of("n1", 1, 0, 1)));

    private static Job running() {
        return Job.submitted(7, REQUEST, "gpu", 60, 1000).started(ALLOC, 1010, 60, "gpu");
    }

    @Test
    void aRequeueEndsTheRunningRunAsRequeuedWithItsBatchStepCancelledBySigterm() {
        StateRecord.JobRequeued requeue = StateRecord.JobRequeued.heldBack(7, false, 1100, 1221);
        List<AccountingRecord.Builder> ended = AccountingEvents.runEnded(requeue, running(), CORES);
        assertThat(ended).hasSize(2);
        AccountingJob run = ended.get(0).getJob().getAccountingJob();
        assertThat(run.getState()).isEqualTo(dev.sluice.protocol.v1.JobState.REQUEUED);
        assertThat(run.getSubmitTime()).isEqualTo(1000);
        assertThat(run.getStartTime()).isEqualTo(1010);
        assertThat(run.getEndTime()).isEqualTo(1100);
        assertThat(run.getExitStatus()).isZero();
        assertThat(run.getNodeList()).isEqualTo("n1");
        StepAccountingRecord batch = ended.get(1).getStep();
        assertThat(batch.getStepId()).isEqualTo(AccountingEvents.BATCH_STEP);
        assertThat(batch.getJobSubmitTime()).isEqualTo(1000);
        assertThat(batch.getState()).isEqualTo(dev.sluice.protocol.v1.JobState.CANCELLED);
        assertThat(batch.getExitStatus()).isEqualTo(15);
        assertThat(batch.getEndTime()).isEqualTo(1100);
    }

    @Test
    void theNextRunIsANewRecordSubmittedAtTheRequeue() {
        StateRecord.JobRequeued requeue = StateRecord.JobRequeued.heldBack(7, false, 1100, 1221);
        Job after = running().requeued(1100, 1221, false, false);
        assertThat(after.run().submitTime()).isEqualTo(1100);
        AccountingJob next =
                AccountingEvents.of(requeue, after, CORES).get(0).getJob().getAccountingJob();
        assertThat(next.getState()).isEqualTo(dev.sluice.protocol.v1.JobState.PENDING);
        assertThat(next.getSubmitTime()).isEqualTo(1100);
        assertThat(next.getStartTime()).isZero();
    }

    @Test
    void aPreemptorsRequeueEndsTheRunAsPreempted() {
        StateRecord.JobRequeued preempted = new StateRecord.JobRequeued(7, false, 1100, 1221, true);
        List<AccountingRecord.Builder> ended = AccountingEvents.runEnded(preempted, running(), CORES);
        assertThat(ended).hasSize(2);
        assertThat(ended.get(0).getJob().getAccountingJob().getState())
                .isEqualTo(dev.sluice.protocol.v1.JobState.PREEMPTED);
        assertThat(ended.get(0).getJob().getAccountingJob().getEndTime()).isEqualTo(1100);
        assertThat(ended.get(1).getStep().getState()).isEqualTo(dev.sluice.protocol.v1.JobState.CANCELLED);
        // Its next run: pending, submitted at the preemption.
        Job after = JobReplay.replay(running(), preempted);
        AccountingJob next =
                AccountingEvents.of(preempted, after, CORES).get(0).getJob().getAccountingJob();
        assertThat(next.getState()).isEqualTo(dev.sluice.protocol.v1.JobState.PENDING);
        assertThat(next.getSubmitTime()).isEqualTo(1100);
    }

    @Test
    void nothingEndsForAFinishedJobsRequeueOrAnotherRecord() {
        StateRecord.JobRequeued requeue = StateRecord.JobRequeued.heldBack(7, false, 1100, 1221);
        Job finished = running().ended(JobState.COMPLETED, 0, 1050, JobReason.NONE);
        assertThat(AccountingEvents.runEnded(requeue, finished, CORES)).isEmpty();
        assertThat(AccountingEvents.runEnded(requeue, Job.submitted(7, REQUEST, "gpu", 60, 1000), CORES))
                .isEmpty();
        assertThat(AccountingEvents.runEnded(requeue, null, CORES)).isEmpty();
        assertThat(AccountingEvents.runEnded(
                        StateRecord.JobEnded.unrequested(7, JobState.COMPLETED, 0, JobReason.NONE, 1100),
                        running(),
                        CORES))
                .isEmpty();
    }

    @Test
    void replayedARequeueSubmitsTheJobAnew() {
        Job requeued = JobReplay.replay(running(), StateRecord.JobRequeued.heldBack(7, false, 1100, 1221));
        assertThat(requeued.run().submitTime()).isEqualTo(1100);
        assertThat(requeued.run().restartCount()).isEqualTo(1);
        // Within the second of the submission: a second later, so that the runs' keys differ.
        Job quick = JobReplay.replay(
                Job.submitted(7, REQUEST, "gpu", 60, 1000).started(ALLOC, 1000, 60, "gpu"),
                StateRecord.JobRequeued.heldBack(7, false, 1000, 1121));
        assertThat(quick.run().submitTime()).isEqualTo(1001);
    }
}
