package dev.sluice.ctld.step;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import dev.sluice.common.tres.Tres;
import dev.sluice.ctld.accounting.AccountingEvents;
import dev.sluice.ctld.control.StepCommands;
import dev.sluice.ctld.persistence.RecordCodec;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.JobStep;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.ctld.state.StepShare;
import dev.sluice.ctld.wire.WireMapper;
import dev.sluice.protocol.v1.AccountingRecord;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.StepInfo;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Steps as squeue -s, scontrol show step and sacct see them. */
class TestStepInfos {
    private static final JobRequest REQUEST = WireMapper.toDomain(JobSpec.newBuilder()
            .setName("train")
            .setScript(com.google.protobuf.ByteString.copyFromUtf8("#!/bin/sh\nsrun sleep 30\n"))
            .setNumTasks(2)
            .setOwner(Identity.newBuilder().setUid(1001).setGid(100).setUserName("alice"))
            .build());
    private static final Allocation NO_MEM =
            new Allocation(List.of(Allocation.NodeShare.of("n1", 2, 0, 2), Allocation.NodeShare.of("n2", 2, 0, 2)));
    private static final Job RUNNING =
            Job.submitted(35, REQUEST, "gpu", 5, 1000).started(NO_MEM, 1010, 5, "gpu");

    /** One task on n1: one CPU for its task, as StepControl places it. */
    private static List<StepShare> shareOnN1() {
        return List.of(new StepShare("n1", 0, List.of(0), 1, List.of()));
    }

    @Test
    void aStepOnOneNodeOfAJobWithoutMemoryHasSlurmsTres() {
        // Slurm 22.05, `sbatch -n2` then `srun -n1 sleep 30`: TRES=cpu=2,mem=0,node=1.
        // The step holds the job's two CPUs on n1 (sacct AllocCPUS 2), not its task's one.
        JobStep step = StepCommands.started(RUNNING, 0, "sleep", shareOnN1(), "n1", false, 1020);
        assertThat(step.tres()).isEqualTo("cpu=2,mem=0,node=1");
        assertThat(step.state()).isEqualTo(JobState.RUNNING);
        assertThat(step.numTasks()).isEqualTo(1);
        assertThat(step.cpus()).isEqualTo(2);
    }

    @Test
    void anExclusiveStepHoldsOnlyWhatItsTasksNeed() {
        JobStep step = StepCommands.started(RUNNING, 0, "sleep", shareOnN1(), "n1", true, 1020);
        assertThat(step.cpus()).isEqualTo(1);
        assertThat(step.tres()).isEqualTo("cpu=1,mem=0,node=1");
    }

    @Test
    void aStepsTresCountItsGres() {
        List<StepShare> withGpus = List.of(new StepShare(
                "n1", 0, List.of(0), 1, List.of(new dev.sluice.ctld.gres.GresGrant("gpu", "", List.of(0, 1), 2))));
        assertThat(StepCommands.tres(NO_MEM, withGpus, 2)).isEqualTo("cpu=2,mem=0,node=1,gres/gpu=2");
    }

    @Test
    void aStepCountsTheJobsMemoryOnItsNodesOnly() {
        Allocation withMem = new Allocation(
                List.of(Allocation.NodeShare.of("n1", 2, 1024, 2), Allocation.NodeShare.of("n2", 2, 1024, 2)));
        // Slurm prints memory in TRES converted (ReqTRES mem=1G for 1024 MB, observed); the
        // spelling is common.tres.Tres', the amount is the step's.
        Tres tres = Tres.parse(StepCommands.tres(withMem, shareOnN1(), 2));
        assertThat(tres.get("cpu")).isEqualTo(2);
        assertThat(tres.get("mem")).isEqualTo(1024);
        assertThat(tres.get("node")).isEqualTo(1);
    }

    @Test
    void theBatchStepShowsWhatSlurmShowsForIt() {
        StepInfo batch = StepInfos.batch(RUNNING);
        assertThat(batch.getStepId()).isEqualTo(AccountingEvents.BATCH_STEP);
        assertThat(batch.getName()).isEqualTo("batch");
        assertThat(batch.getNodeList()).isEqualTo("n1");
        assertThat(batch.getNumCpus()).isZero();
        assertThat(batch.getTres()).isEmpty();
        assertThat(batch.getUserName()).isEqualTo("alice");
        assertThat(batch.getStartTime()).isEqualTo(1010);
    }

    @Test
    void aStepEndsCompletedFailedOrCancelledWithItsJob() {
        assertThat(StepCommands.endState(RUNNING, 0)).isEqualTo(JobState.COMPLETED);
        assertThat(StepCommands.endState(RUNNING, 3 << 8)).isEqualTo(JobState.FAILED);
        Job cancelled = RUNNING.ended(JobState.CANCELLED, 15, 1030, JobReason.NONE);
        assertThat(StepCommands.endState(cancelled, 15)).isEqualTo(JobState.CANCELLED);
        Job timedOut = RUNNING.ended(JobState.TIMEOUT, 15, 1030, JobReason.TIME_LIMIT);
        assertThat(StepCommands.endState(timedOut, 9)).isEqualTo(JobState.CANCELLED);
    }

    @Test
    void aRecordedStepIsJournaledAndShippedToAccountingAsAStepRow() {
        JobStep ended = StepCommands.started(RUNNING, 0, "sleep", shareOnN1(), "n1", false, 1020)
                .ended(JobState.FAILED, 3 << 8, 1025);
        StateRecord record = new StateRecord.StepRecorded(35, ended, 1025);
        assertThat(RecordCodec.decode(RecordCodec.encode(7, record))).isEqualTo(record);
        assertThat(AccountingEvents.jobIdsOf(record)).containsExactly(35);
        List<AccountingRecord.Builder> out =
                AccountingEvents.of(record, RUNNING, AccountingEvents.Site.withoutReservations(false, p -> 0, id -> 0));
        assertThat(out).singleElement().satisfies(r -> {
            assertThat(r.getStep().getJobId()).isEqualTo(35);
            assertThat(r.getStep().getJobSubmitTime()).isEqualTo(1000);
            assertThat(r.getStep().getStepId()).isZero();
            assertThat(r.getStep().getName()).isEqualTo("sleep");
            assertThat(r.getStep().getState()).isEqualTo(dev.sluice.protocol.v1.JobState.FAILED);
            assertThat(r.getStep().getExitStatus()).isEqualTo(3 << 8);
            assertThat(r.getStep().getEndTime()).isEqualTo(1025);
            assertThat(r.getStep().getAllocTres()).isEqualTo("cpu=2,mem=0,node=1");
        });
    }
}
