package dev.sluice.ctld.accounting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import dev.sluice.common.slurm.NodeState;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.gres.GresInventory;
import dev.sluice.ctld.gres.GresUnit;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobChange;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.Node;
import dev.sluice.ctld.state.NodeAdmin;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.ctld.wire.WireMapper;
import dev.sluice.protocol.v1.AccountingJob;
import dev.sluice.protocol.v1.AccountingRecord;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.JobSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AccountingEventsTest {
    /** Memory allocated (CR_Core_Memory), partitions of 8000 MB nodes. */
    private static final AccountingEvents.Site MEMORY =
            AccountingEvents.Site.withoutReservations(true, p -> 8000, id -> 0);
    /** CR_Core, as the differential suite's cluster. */
    private static final AccountingEvents.Site CORES =
            AccountingEvents.Site.withoutReservations(false, p -> 8000, id -> 0);

    private static Node node(String name, int cpus, long mem, GresInventory gres, boolean future) {
        ClusterFixture.NodeBuilder node =
                ClusterFixture.aNode(name).cpus(cpus).memory(mem).gres(gres);
        return (future ? node.future() : node).build();
    }

    @Test
    void theClusterSizeSumsNodesAndConsumableGresButNotFutureNodes() {
        GresInventory gpus = new GresInventory(List.of(
                new GresUnit("gpu", "", 0, "/dev/nvidia0", List.of(), 1, true),
                new GresUnit("gpu", "", 1, "/dev/nvidia1", List.of(), 1, true)));
        String tres = AccountingEvents.clusterTres(
                List.of(
                        node("n1", 4, 8000, gpus, false),
                        node("n2", 8, 16000, gpus, false),
                        node("n3", 64, 64000, GresInventory.NONE, true)),
                Map.of());
        assertThat(tres).isEqualTo("cpu=12,mem=24000M,node=2,billing=12,gres/gpu=4");
        // AccountingStorageTRES=license/foo,license/bar: their totals count too (Slurm 22.05's
        // cluster TRES: ...,gres/gpu=6,...,license/foo=4,...).
        assertThat(AccountingEvents.clusterTres(
                        List.of(node("n1", 4, 8000, gpus, false)), Map.of("foo", 4L, "bar", 1L)))
                .isEqualTo("cpu=4,mem=8000M,node=1,billing=4,gres/gpu=2,license/bar=1,license/foo=4");
        assertThat(AccountingEvents.clusterSize(77, tres, "").getClusterTres().getTime())
                .isEqualTo(77);
        Node drained =
                node("n2", 8, 16000, gpus, false).withAdmin(new NodeAdmin(NodeState.IDLE, true, "fan", "root", 5));
        assertThat(AccountingEvents.downTres(List.of(node("n1", 4, 8000, gpus, false), drained)))
                .isEqualTo("cpu=8,mem=16000M,node=1,billing=8,gres/gpu=2");
        assertThat(AccountingEvents.changesSize(new StateRecord.NodeDeleted("n1", 5)))
                .isTrue();
        assertThat(AccountingEvents.changesSize(new StateRecord.JobsPurged(List.of(), 5)))
                .isFalse();
    }

    private static final JobRequest REQUEST = WireMapper.toDomain(JobSpec.newBuilder()
            .setName("train")
            .setScript(com.google.protobuf.ByteString.copyFromUtf8("#!/bin/sh\ntrue\n"))
            .setAccount("physics")
            .setNumTasks(1)
            .setCpusPerTask(2)
            .setOwner(Identity.newBuilder().setUid(1001).setGid(100).setUserName("alice"))
            .build());
    private static final Allocation ALLOC =
            new Allocation(List.of(Allocation.NodeShare.of("n1", 2, 512, 1), Allocation.NodeShare.of("n2", 2, 512, 1)));

    @Test
    void theRecordCarriesThePriorityTheLastPassGaveTheJob() {
        Job job = Job.submitted(5, REQUEST, "gpu", 60, 1000);
        StateRecord submitted = new StateRecord.JobSubmitted(5, REQUEST, "gpu", 60, 1000);
        AccountingEvents.Site ranked =
                AccountingEvents.Site.withoutReservations(false, p -> 8000, id -> id == 5 ? 4294901759L : 0);
        assertThat(AccountingEvents.of(submitted, job, ranked))
                .singleElement()
                .satisfies(r -> assertThat(Integer.toUnsignedLong(
                                r.getJob().getAccountingJob().getPriority()))
                        .isEqualTo(4294901759L));
        // No pass ranked it: 0, which leaves what the database holds.
        assertThat(AccountingEvents.of(submitted, job, CORES))
                .singleElement()
                .satisfies(r ->
                        assertThat(r.getJob().getAccountingJob().getPriority()).isZero());
    }

    @Test
    void submissionGivesTheJobAsPending() {
        Job job = Job.submitted(5, REQUEST, "gpu", 60, 1000);
        List<AccountingRecord.Builder> out =
                AccountingEvents.of(new StateRecord.JobSubmitted(5, REQUEST, "gpu", 60, 1000), job, MEMORY);
        assertThat(out).singleElement().satisfies(r -> {
            assertThat(r.getJob().getAccountingJob().getJobId()).isEqualTo(5);
            assertThat(r.getJob().getAccountingJob().getName()).isEqualTo("train");
            assertThat(r.getJob().getUserName()).isEqualTo("alice");
            assertThat(r.getJob().getAccountingJob().getState()).isEqualTo(dev.sluice.protocol.v1.JobState.PENDING);
            assertThat(r.getJob().getAccountingJob().getAllocTres()).isEmpty();
        });
    }

    @Test
    void aJobInAReservationCarriesItsNameAndNumber() {
        JobRequest inResv = REQUEST.withReservation("r1");
        Job job = Job.submitted(5, inResv, "gpu", 60, 1000);
        AccountingEvents.Site site = new AccountingEvents.Site(
                true, p -> 8000, id -> 0, name -> name.equals("r1") ? 3 : 0, java.util.Set.of());
        AccountingJob acct = AccountingEvents.of(new StateRecord.JobSubmitted(5, inResv, "gpu", 60, 1000), job, site)
                .get(0)
                .getJob()
                .getAccountingJob();
        assertThat(acct.getReservation()).isEqualTo("r1");
        assertThat(acct.getReservationId()).isEqualTo(3);
        AccountingJob none = AccountingEvents.of(
                        new StateRecord.JobSubmitted(5, REQUEST, "gpu", 60, 1000),
                        Job.submitted(5, REQUEST, "gpu", 60, 1000),
                        site)
                .get(0)
                .getJob()
                .getAccountingJob();
        assertThat(none.getReservation()).isEmpty();
        assertThat(none.getReservationId()).isZero();
    }

    @Test
    void startGivesTheJobAndItsRunningBatchStepOnTheFirstNode() {
        Job job = Job.submitted(5, REQUEST, "gpu", 60, 1000).started(ALLOC, 1010, 60, "gpu");
        List<AccountingRecord.Builder> out =
                AccountingEvents.of(new StateRecord.JobStarted(5, ALLOC, "gpu", 60, 1010), job, MEMORY);
        assertThat(out).hasSize(2);
        assertThat(out.get(0).getJob().getAccountingJob().getNodeList()).isEqualTo("n[1-2]");
        assertThat(out.get(0).getJob().getAccountingJob().getAllocTres()).contains("cpu=4");
        var step = out.get(1).getStep();
        assertThat(step.getStepId()).isEqualTo(AccountingEvents.BATCH_STEP);
        assertThat(step.getName()).isEqualTo("batch");
        assertThat(step.getNodeList()).isEqualTo("n1");
        assertThat(step.getNumCpus()).isEqualTo(2);
        assertThat(step.getAllocTres()).isEqualTo("cpu=2,mem=512M,node=1");
        assertThat(step.getJobSubmitTime()).isEqualTo(1000);
        assertThat(step.getState()).isEqualTo(dev.sluice.protocol.v1.JobState.RUNNING);
    }

    @Test
    void aTimedOutJobsBatchStepEndsCancelled() {
        Job job = Job.submitted(5, REQUEST, "gpu", 60, 1000)
                .started(ALLOC, 1010, 60, "gpu")
                .ended(JobState.TIMEOUT, 15, 4610, JobReason.TIME_LIMIT);
        List<AccountingRecord.Builder> out = AccountingEvents.of(
                StateRecord.JobEnded.unrequested(5, JobState.TIMEOUT, 15, JobReason.TIME_LIMIT, 4610), job, MEMORY);
        assertThat(out.get(0).getJob().getAccountingJob().getState())
                .isEqualTo(dev.sluice.protocol.v1.JobState.TIMEOUT);
        assertThat(out.get(1).getStep().getState()).isEqualTo(dev.sluice.protocol.v1.JobState.CANCELLED);
        assertThat(out.get(1).getStep().getEndTime()).isEqualTo(4610);
        // The signal shows on the step; the job itself reads 0:0, as in sacct.
        assertThat(out.get(1).getStep().getExitStatus()).isEqualTo(15);
        assertThat(out.get(0).getJob().getAccountingJob().getExitStatus()).isZero();
    }

    @Test
    void aFailedJobKeepsItsExitCodeOnJobAndStep() {
        Job job = Job.submitted(5, REQUEST, "gpu", 60, 1000)
                .started(ALLOC, 1010, 60, "gpu")
                .ended(JobState.FAILED, 3 << 8, 1011, JobReason.NON_ZERO_EXIT_CODE);
        List<AccountingRecord.Builder> out = AccountingEvents.of(
                StateRecord.JobEnded.unrequested(5, JobState.FAILED, 3 << 8, JobReason.NON_ZERO_EXIT_CODE, 1011),
                job,
                MEMORY);
        assertThat(out.get(0).getJob().getAccountingJob().getExitStatus()).isEqualTo(3 << 8);
        assertThat(out.get(1).getStep().getExitStatus()).isEqualTo(3 << 8);
        assertThat(out.get(1).getStep().getState()).isEqualTo(dev.sluice.protocol.v1.JobState.FAILED);
    }

    @Test
    void aJobCancelledWhilePendingHasNoStepAndStartsWhenItEnds() {
        Job job = Job.submitted(5, REQUEST, "gpu", 60, 1000).ended(JobState.CANCELLED, 0, 1005, JobReason.NONE);
        List<AccountingRecord.Builder> out = AccountingEvents.of(
                new StateRecord.JobEnded(5, JobState.CANCELLED, 0, JobReason.NONE, 1005, 1001), job, MEMORY);
        assertThat(out).singleElement().satisfies(r -> {
            // sacct: Start = End, and -s R lists it (Slurm 22.05, compat/expected/077).
            assertThat(r.getJob().getAccountingJob().getStartTime()).isEqualTo(1005);
            assertThat(r.getJob().getCancelledBy()).isEqualTo(1001);
        });
    }

    @Test
    void aJobEndedPastItsDeadlineReadsOneZeroWithItsSubmittedReasonAndNoStart() {
        // sacct DEADLINE 1:0, Reason None (JobHeldUser for a job submitted held), as slurmdbd
        // 22.05 keeps them (compat 304, 305); scontrol's start is its end, accounting's none.
        Job job = Job.submitted(5, REQUEST, "gpu", 60, 1000)
                .ended(JobState.DEADLINE, 1, 1005, JobReason.DEADLINE)
                .with(b -> b.startTime(1005));
        List<AccountingRecord.Builder> out = AccountingEvents.of(
                StateRecord.JobEnded.unrequested(5, JobState.DEADLINE, 1, JobReason.DEADLINE, 1005), job, MEMORY);
        assertThat(out).singleElement().satisfies(r -> {
            var accounted = r.getJob().getAccountingJob();
            assertThat(accounted.getState()).isEqualTo(dev.sluice.protocol.v1.JobState.DEADLINE);
            assertThat(accounted.getExitStatus()).isEqualTo(1 << 8);
            assertThat(accounted.getReason()).isEqualTo("None");
            assertThat(accounted.getStartTime()).isZero();
            assertThat(accounted.getEndTime()).isEqualTo(1005);
        });
    }

    @Test
    void whoCancelledARunningJobIsRecordedAndAnEndNobodyAskedForHasNone() {
        Job running = Job.submitted(5, REQUEST, "gpu", 60, 1000).started(ALLOC, 1010, 60, "gpu");
        Job cancelled = running.ended(JobState.CANCELLED, 15, 1020, JobReason.NONE);
        var out = AccountingEvents.of(
                new StateRecord.JobEnded(5, JobState.CANCELLED, 15, JobReason.NONE, 1020, 0), cancelled, MEMORY);
        assertThat(out.get(0).getJob().hasCancelledBy()).isTrue();
        assertThat(out.get(0).getJob().getCancelledBy()).isZero();
        Job done = running.ended(JobState.COMPLETED, 0, 1020, JobReason.NONE);
        out = AccountingEvents.of(
                StateRecord.JobEnded.unrequested(5, JobState.COMPLETED, 0, JobReason.NONE, 1020), done, MEMORY);
        assertThat(out.get(0).getJob().hasCancelledBy()).isFalse();
    }

    @Test
    void theJobsRequestIsRecordedBesideItsAllocation() {
        Job job = Job.submitted(5, REQUEST, "gpu", 60, 1000).started(ALLOC, 1010, 60, "gpu");
        var record = AccountingEvents.of(new StateRecord.JobStarted(5, ALLOC, "gpu", 60, 1010), job, MEMORY)
                .get(0)
                .getJob();
        // One task of two CPUs on one node asked; two nodes of two CPUs held.
        assertThat(record.getReqCpus()).isEqualTo(2);
        assertThat(record.getReqNodes()).isEqualTo(1);
        assertThat(record.getAccountingJob().getNumCpus()).isEqualTo(4);
    }

    @Test
    void aJobThatAskedNoMemoryRequestsItsNodesMemory() {
        // Slurm 22.05: sbatch -N2 -n8 --wrap true on 8000 MB nodes: ReqTRES ...,mem=16000M,node=2.
        Job job = Job.submitted(5, REQUEST, "gpu", 60, 1000)
                .started(ALLOC, 1010, 60, "gpu")
                .ended(JobState.COMPLETED, 0, 1011, JobReason.NONE);
        var out = AccountingEvents.of(
                StateRecord.JobEnded.unrequested(5, JobState.COMPLETED, 0, JobReason.NONE, 1011), job, CORES);
        assertThat(out.get(0).getJob().getAccountingJob().getReqTres()).contains("mem=16000M");
    }

    @Test
    void withoutConsumableMemoryNothingCountsMemoryButTheStepsMemZero() {
        // Slurm 22.05 with CR_Core, sbatch --mem=1000 -c2 --gres=gpu:2: AllocTRES
        // billing=2,cpu=2,gres/gpu=2,node=1; its batch step cpu=2,gres/gpu=2,mem=0,node=1.
        var gpus = List.of(new dev.sluice.ctld.gres.GresGrant("gpu", "", List.of(0, 1), 2));
        Allocation alloc = new Allocation(List.of(Allocation.NodeShare.withGres("n1", 2, 1000, 1, gpus)));
        Job job = Job.submitted(5, REQUEST, "gpu", 60, 1000).started(alloc, 1010, 60, "gpu");
        var out = AccountingEvents.of(new StateRecord.JobStarted(5, alloc, "gpu", 60, 1010), job, CORES);
        assertThat(out.get(0).getJob().getAccountingJob().getAllocTres())
                .isEqualTo("cpu=2,node=1,billing=2,gres/gpu=2");
        assertThat(out.get(1).getStep().getAllocTres()).isEqualTo("cpu=2,mem=0,node=1,gres/gpu=2");
        out = AccountingEvents.of(new StateRecord.JobStarted(5, alloc, "gpu", 60, 1010), job, MEMORY);
        assertThat(out.get(1).getStep().getAllocTres()).isEqualTo("cpu=2,mem=1000M,node=1,gres/gpu=2");
    }

    @Test
    void nodeRecordsCarryNothing() {
        assertThat(AccountingEvents.jobIdsOf(new StateRecord.JobsPurged(List.of(1), 5)))
                .isEmpty();
        // A split names the new task first, then the array record it left.
        assertThat(AccountingEvents.jobIdsOf(new StateRecord.ArrayTaskSplit(6, 1, 7, 5)))
                .containsExactly(7, 6);
        assertThat(AccountingEvents.jobIdsOf(new StateRecord.ArrayTaskSplit(6, 4, 6, 5)))
                .containsExactly(6);
        assertThat(AccountingEvents.jobIdsOf(new StateRecord.JobUpdated(6, List.of(new JobChange.TimeLimit(5)), 5)))
                .containsExactly(6);
        assertThat(AccountingEvents.of(new StateRecord.JobsPurged(List.of(5), 5), null, MEMORY))
                .isEmpty();
    }

    @Test
    void settingsNeedSlurmdbdAndAHost() {
        assertThat(AccountingSettings.from("c", Map.of())).isEmpty();
        assertThat(AccountingSettings.from("c", Map.of("AccountingStorageType", "accounting_storage/none")))
                .isEmpty();
        assertThat(AccountingSettings.from(
                        "c",
                        Map.of(
                                "AccountingStorageType", "accounting_storage/slurmdbd",
                                "AccountingStorageHost", "db1",
                                "AccountingStoragePort", "7000")))
                .contains(new AccountingSettings("c", "db1", 7100, java.util.Set.of()));
        assertThatThrownBy(() ->
                        AccountingSettings.from("c", Map.of("AccountingStorageType", "accounting_storage/slurmdbd")))
                .hasMessageContaining("AccountingStorageHost");
    }
}
