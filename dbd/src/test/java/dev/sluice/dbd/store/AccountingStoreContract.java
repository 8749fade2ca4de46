package dev.sluice.dbd.store;

import static dev.sluice.dbd.store.Records.batch;
import static dev.sluice.dbd.store.Records.batchStep;
import static dev.sluice.dbd.store.Records.ended;
import static dev.sluice.dbd.store.Records.job;
import static dev.sluice.dbd.store.Records.pending;
import static dev.sluice.dbd.store.Records.running;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.protocol.v1.AccountedJob;
import dev.sluice.protocol.v1.AccountingRecord;
import dev.sluice.protocol.v1.JobAccountingRecord;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.JobQuery;
import dev.sluice.protocol.v1.JobState;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The accounting store's behaviour, run against each supported database: a job's records become
 * its row and steps, a batch is applied exactly once, and each run of a job keeps its own row.
 * Every test uses its own cluster name, so the suite can share one MariaDB schema with earlier
 * runs. What sacct's filters find is {@link JobQueryContract}'s.
 */
abstract class AccountingStoreContract extends JobStoreContract {
    @Test
    void aJobsLifeEndsAsOneRowWithItsBatchStep() throws Exception {
        JobInfo p = pending(7, "train", "alice", 1000);
        JobInfo r = running(p, 1010);
        JobInfo e = ended(r, JobState.COMPLETED, 0, 1070);
        assertThat(store.apply(batch(cluster, job(3, p)))).isEqualTo(3);
        assertThat(store.apply(batch(cluster, job(5, r), batchStep(6, r)))).isEqualTo(6);
        assertThat(store.apply(batch(cluster, job(9, e), batchStep(10, e)))).isEqualTo(10);

        List<AccountedJob> jobs = all();
        assertThat(jobs).hasSize(1);
        AccountedJob j = jobs.get(0);
        assertThat(j.getJobId()).isEqualTo(7);
        assertThat(j.getName()).isEqualTo("train");
        assertThat(j.getUserName()).isEqualTo("alice");
        assertThat(j.getAccount()).isEqualTo("physics");
        assertThat(j.getPartition()).isEqualTo("gpu");
        assertThat(j.getState()).isEqualTo(JobState.COMPLETED);
        assertThat(j.getSubmitTime()).isEqualTo(1000);
        assertThat(j.getStartTime()).isEqualTo(1010);
        assertThat(j.getEndTime()).isEqualTo(1070);
        assertThat(j.getNumCpus()).isEqualTo(2);
        assertThat(j.getNodeList()).isEqualTo("n1");
        assertThat(j.getReqTres()).isEqualTo("billing=2,cpu=2,mem=1G,node=1");
        assertThat(j.getAllocTres()).isEqualTo("billing=2,cpu=2,gres/gpu=1,mem=1G,node=1");
        assertThat(j.getStepsList()).singleElement().satisfies(s -> {
            assertThat(s.getName()).isEqualTo("batch");
            assertThat(s.getState()).isEqualTo(JobState.COMPLETED);
            assertThat(s.getEndTime()).isEqualTo(1070);
        });
        assertThat(store.appliedThrough(cluster)).isEqualTo(10);
    }

    @Test
    void whatSacctShowsBeyondTheJobsLifeIsKept() throws Exception {
        JobInfo e = ended(running(pending(7, "train", "alice", 1000), 1010), JobState.CANCELLED, 0, 1070);
        AccountingRecord cancelled = AccountingRecord.newBuilder()
                .setSequence(1)
                .setJob(JobAccountingRecord.newBuilder()
                        .setJob(e.toBuilder().setPriority((int) 4294901349L).setReason("None"))
                        .setReqCpus(3)
                        .setReqNodes(2)
                        .setCancelledBy(1001))
                .build();
        store.apply(batch(cluster, cancelled, batchStep(2, e), step(3, e, 0, 4 << 8), step(4, e, 1, 9)));
        AccountedJob j = all().get(0);
        assertThat(j.getCancelledBy()).isEqualTo(1001);
        assertThat(j.getReqCpus()).isEqualTo(3);
        assertThat(j.getReqNodes()).isEqualTo(2);
        assertThat(Integer.toUnsignedLong(j.getPriority())).isEqualTo(4294901349L);
        assertThat(j.getReason()).isEqualTo("None");
        assertThat(j.getDbIndex()).isPositive();
        // sacct DerivedExitCode: the highest of the srun steps' statuses (4:0 over 0:9).
        assertThat(j.getDerivedExitStatus()).isEqualTo(4 << 8);
        // Nobody cancelled a job whose record says nothing about it; normal is QOS 1.
        JobInfo done = ended(running(pending(8, "b", "bob", 1000), 1010), JobState.COMPLETED, 0, 1011);
        done = done.toBuilder()
                .setSpec(done.getSpec().toBuilder().setQos("normal"))
                .build();
        store.apply(batch(cluster, job(5, done)));
        AccountedJob other = all().get(1);
        assertThat(other.hasCancelledBy()).isFalse();
        assertThat(other.getQosId()).isEqualTo(1);
        assertThat(j.getQosId()).isZero();
    }

    @Test
    void aJobsWckeyIsKeptInSlurmsFormAndAChangeReplacesIt() throws Exception {
        JobInfo asked = wckey(ended(running(pending(11, "a", "alice", 1000), 1010), JobState.COMPLETED, 0, 1020), "wa");
        JobInfo byDefault = wckey(pending(12, "b", "alice", 1001), "*wd");
        JobInfo none = pending(13, "c", "bob", 1002);
        store.apply(batch(cluster, job(1, asked), job(2, byDefault), job(3, none)));
        assertThat(all()).extracting(AccountedJob::getWckey).containsExactly("wa", "*wd", "");

        // scontrol update job WCKey= while it waits: the newer record's wckey is the job's.
        store.apply(batch(cluster, job(4, wckey(byDefault, "wb"))));
        assertThat(all()).extracting(AccountedJob::getWckey).containsExactly("wa", "wb", "");
    }

    private static JobInfo wckey(JobInfo j, String wckey) {
        return j.toBuilder().setSpec(j.getSpec().toBuilder().setWckey(wckey)).build();
    }

    @Test
    void theEndKeepsThePriorityAndReasonTheJobStartedWith() throws Exception {
        JobInfo r = running(pending(7, "train", "alice", 1000), 1010);
        r = r.toBuilder().setPriority((int) 4294901759L).setReason("None").build();
        JobInfo e = ended(r, JobState.FAILED, 3 << 8, 1070).toBuilder()
                .setPriority(0)
                .setReason("NonZeroExitCode")
                .build();
        store.apply(batch(cluster, job(1, r)));
        store.apply(batch(cluster, job(2, e)));
        AccountedJob j = all().get(0);
        assertThat(j.getState()).isEqualTo(JobState.FAILED);
        assertThat(Integer.toUnsignedLong(j.getPriority())).isEqualTo(4294901759L);
        assertThat(j.getReason()).isEqualTo("None");
        // Requeued and started again: a new run records its own.
        JobInfo again = running(e, 1100).toBuilder()
                .setPriority(5)
                .setReason("Resources")
                .build();
        store.apply(batch(cluster, job(3, again)));
        assertThat(all().get(0).getPriority()).isEqualTo(5);
        assertThat(all().get(0).getReason()).isEqualTo("Resources");
    }

    @Test
    void aWholeLifeInOneBatchIsStoredAsWhenSentRecordByRecord() throws Exception {
        JobInfo p =
                pending(7, "train", "alice", 1000).toBuilder().setPriority(90).build();
        JobInfo r =
                running(p, 1010).toBuilder().setPriority(0).setReason("None").build();
        JobInfo e = ended(r, JobState.FAILED, 3 << 8, 1070).toBuilder()
                .setPriority(0)
                .setReason("NonZeroExitCode")
                .build();
        JobInfo other = running(pending(8, "b", "bob", 1001), 1011);
        List<AccountingRecord> life = List.of(
                job(1, p), job(2, r), batchStep(3, r), step(4, other, 0, 0), job(5, e), batchStep(6, e), job(7, other));
        String apart = cluster + "-1by1";
        for (AccountingRecord one : life) {
            store.apply(batch(apart, one));
        }
        assertThat(store.apply(batch(cluster, life.toArray(AccountingRecord[]::new))))
                .isEqualTo(7);

        List<AccountedJob> together = all();
        assertThat(together).hasSize(2);
        AccountedJob j = together.get(0);
        assertThat(j.getState()).isEqualTo(JobState.FAILED);
        assertThat(j.getPriority()).isEqualTo(90);
        assertThat(j.getReason()).isEqualTo("None");
        assertThat(j.getStepsList())
                .singleElement()
                .satisfies(s -> assertThat(s.getEndTime()).isEqualTo(1070));
        // A step ahead of its job's record names no stored job and is dropped either way.
        assertThat(together.get(1).getStepsList()).isEmpty();
        List<AccountedJob> oneByOne =
                queries.find(JobQuery.newBuilder().addClusters(apart).build());
        assertThat(together.stream().map(AccountingStoreContract::apart).toList())
                .isEqualTo(oneByOne.stream().map(AccountingStoreContract::apart).toList());
    }

    /** What a job's row says, not where it is kept. */
    private static AccountedJob apart(AccountedJob j) {
        return j.toBuilder().clearCluster().clearDbIndex().clearAssocId().build();
    }

    private static AccountingRecord step(long seq, JobInfo j, int stepId, int status) {
        AccountingRecord b = batchStep(seq, j);
        return b.toBuilder()
                .setStep(b.getStep().toBuilder()
                        .setStepId(stepId)
                        .setName("s" + stepId)
                        .setExitStatus(status))
                .build();
    }

    @Test
    void aResentBatchChangesNothingAndGetsTheSameAck() throws Exception {
        JobInfo p = pending(8, "a", "bob", 2000);
        JobInfo e = ended(running(p, 2001), JobState.FAILED, 256, 2002);
        var first = batch(cluster, job(1, p), job(2, e));
        assertThat(store.apply(first)).isEqualTo(2);
        List<AccountedJob> before = all();

        assertThat(store.apply(first)).isEqualTo(2);
        // An older record re-sent on its own must not roll the job back either.
        assertThat(store.apply(batch(cluster, job(1, p)))).isEqualTo(2);
        assertThat(all()).isEqualTo(before);
        assertThat(before.get(0).getState()).isEqualTo(JobState.FAILED);
        assertThat(before.get(0).getExitStatus()).isEqualTo(256);
    }

    @Test
    void aBatchOverlappingTheAppliedMarkAppliesOnlyTheNewRecords() throws Exception {
        JobInfo a = pending(1, "a", "carol", 10);
        JobInfo b = pending(2, "b", "carol", 11);
        store.apply(batch(cluster, job(1, a)));
        assertThat(store.apply(batch(cluster, job(1, a), job(2, b)))).isEqualTo(2);
        assertThat(all()).extracting(AccountedJob::getJobId).containsExactly(1, 2);
    }

    @Test
    void sameJobIdWithAnotherSubmitTimeIsAnotherJob() throws Exception {
        store.apply(batch(cluster, job(1, pending(5, "x", "dave", 100)), job(2, pending(5, "y", "dave", 200))));
        assertThat(duplicates()).extracting(AccountedJob::getName).containsExactly("x", "y");
        // Without -D, sacct shows the latest record of a job id only.
        assertThat(all()).extracting(AccountedJob::getName).containsExactly("y");
    }

    private List<AccountedJob> duplicates() throws Exception {
        return queries.find(
                JobQuery.newBuilder().addClusters(cluster).setDuplicates(true).build());
    }

    @Test
    void recordsSubmittedInTheSameSecondListInTheOrderTheyWereRecorded() throws Exception {
        // Job 20 runs, job 21 (its preemptor) is submitted at 1100, and job 20 is requeued in
        // that second: its next record lists after the preemptor's, though its id is lower.
        JobInfo first = running(pending(20, "victim", "alice", 1000), 1010);
        store.apply(batch(cluster, job(1, pending(20, "victim", "alice", 1000)), job(2, first)));
        store.apply(batch(
                cluster,
                job(3, pending(21, "preemptor", "alice", 1100)),
                job(4, ended(first, JobState.PREEMPTED, 0, 1100)),
                job(5, pending(20, "victim", "alice", 1100))));
        assertThat(all()).extracting(AccountedJob::getJobId).containsExactly(21, 20);
        assertThat(duplicates())
                .extracting(j -> j.getJobId() + "/" + j.getState())
                .containsExactly("20/PREEMPTED", "21/PENDING", "20/PENDING");
    }

    @Test
    void aRequeuedJobKeepsOneRowPerRunEachWithItsOwnBatchStep() throws Exception {
        JobInfo first = running(pending(7, "rq", "alice", 1000), 1010);
        // The requeue ends the first run (its script killed by SIGTERM) and submits the job anew.
        JobInfo requeued = ended(first, JobState.REQUEUED, 0, 1100);
        JobInfo killed = ended(first, JobState.CANCELLED, 15, 1100);
        JobInfo second = running(pending(7, "rq", "alice", 1100), 1230);
        JobInfo done = ended(second, JobState.FAILED, 3 << 8, 1240);
        store.apply(batch(cluster, job(1, pending(7, "rq", "alice", 1000)), job(2, first), batchStep(3, first)));
        store.apply(batch(cluster, job(4, requeued), batchStep(5, killed), job(6, pending(7, "rq", "alice", 1100))));
        store.apply(batch(cluster, job(7, second), batchStep(8, second), job(9, done), batchStep(10, done)));
        // A resent batch (lost ack) adds no run.
        store.apply(batch(cluster, job(4, requeued), batchStep(5, killed), job(6, pending(7, "rq", "alice", 1100))));

        List<AccountedJob> runs = duplicates();
        assertThat(runs).extracting(AccountedJob::getState).containsExactly(JobState.REQUEUED, JobState.FAILED);
        AccountedJob run1 = runs.get(0);
        assertThat(run1.getSubmitTime()).isEqualTo(1000);
        assertThat(run1.getStartTime()).isEqualTo(1010);
        assertThat(run1.getEndTime()).isEqualTo(1100);
        assertThat(run1.getStepsList()).singleElement().satisfies(st -> {
            assertThat(st.getState()).isEqualTo(JobState.CANCELLED);
            assertThat(st.getExitStatus()).isEqualTo(15);
        });
        AccountedJob run2 = runs.get(1);
        assertThat(run2.getSubmitTime()).isEqualTo(1100);
        assertThat(run2.getStartTime()).isEqualTo(1230);
        assertThat(run2.getStepsList()).singleElement().satisfies(st -> {
            assertThat(st.getState()).isEqualTo(JobState.FAILED);
            assertThat(st.getEndTime()).isEqualTo(1240);
        });
        assertThat(all())
                .singleElement()
                .satisfies(j -> assertThat(j.getSubmitTime()).isEqualTo(1100));
        assertThat(queries.find(JobQuery.newBuilder()
                        .addClusters(cluster)
                        .setDuplicates(true)
                        .addStates(JobState.REQUEUED)
                        .build()))
                .singleElement()
                .satisfies(j -> assertThat(j.getEndTime()).isEqualTo(1100));
    }

    @Test
    void batchesNoRetryCanFixAreRefusedWithoutEffect() throws Exception {
        JobInfo a = pending(1, "a", "erin", 10);
        assertThatThrownBy(() -> store.apply(batch(cluster, job(5, a), job(4, a))))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.apply(batch("", job(1, a)))).isInstanceOf(IllegalArgumentException.class);
        assertThat(store.appliedThrough(cluster)).isZero();
        assertThat(all()).isEmpty();
    }

    @Test
    void clustersAreKeptApart() throws Exception {
        String other = cluster + "x";
        store.apply(batch(cluster, job(4, pending(1, "here", "f", 1))));
        assertThat(store.apply(batch(other, job(2, pending(1, "there", "f", 1)))))
                .isEqualTo(2);
        assertThat(all()).extracting(AccountedJob::getName).containsExactly("here");
        assertThat(store.appliedThrough(other)).isEqualTo(2);
    }

    @Test
    void aNewGresTypeGetsADynamicTresId() throws Exception {
        JobInfo r = running(pending(1, "a", "jo", 100), 110).toBuilder()
                .setAllocTres("cpu=1,node=1,gres/shard=4")
                .build();
        store.apply(batch(cluster, job(1, r)));
        assertThat(all().get(0).getAllocTres()).isEqualTo("cpu=1,gres/shard=4,node=1");
    }
}
