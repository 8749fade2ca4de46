package dev.sluice.dbd.store;

import static dev.sluice.dbd.store.Records.batch;
import static dev.sluice.dbd.store.Records.ended;
import static dev.sluice.dbd.store.Records.job;
import static dev.sluice.dbd.store.Records.pending;
import static dev.sluice.dbd.store.Records.running;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.protocol.v1.AccountedJob;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.JobQuery;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.protocol.v1.ModifiedJob;
import dev.sluice.protocol.v1.ModifyJobsRequest;
import dev.sluice.protocol.v1.ModifyResult;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * sacctmgr modify job on each database: the derived exit code, comment, admin and system
 * comments of a job's latest record change, sacct's query reads them; the owner's and an
 * operator's rights; a preview changes nothing; unknown jobs and a new wckey change nothing.
 */
abstract class JobEditsContract extends JobStoreContract {
    private static final JobEdits.Caller ROOT = new JobEdits.Caller(0, true);
    // Records.pending numbers a user 1000 plus its name's length: gina is 1004.
    private static final JobEdits.Caller GINA = new JobEdits.Caller(1004, false);
    private static final JobEdits.Caller BOB = new JobEdits.Caller(1003, false);

    private JobEdits edits;

    @BeforeEach
    void edits() throws Exception {
        edits = new JobEdits(db.dataSource());
        JobInfo a = ended(running(pending(1, "a", "gina", 100), 110), JobState.COMPLETED, 0, 200);
        JobInfo b = ended(running(pending(2, "b", "gina", 300), 310), JobState.FAILED, 256, 400);
        store.apply(batch(cluster, job(1, a), job(2, b)));
    }

    private ModifyJobsRequest.Builder request(int... ids) {
        ModifyJobsRequest.Builder r =
                ModifyJobsRequest.newBuilder().setCluster(cluster).setCommit(true);
        for (int id : ids) {
            r.addJobIds(id);
        }
        return r;
    }

    private AccountedJob read(int id) throws Exception {
        return queries.find(
                        JobQuery.newBuilder().addClusters(cluster).addJobIds(id).build())
                .get(0);
    }

    @Test
    void anOperatorSetsEveryFieldOnEachJobNamed() throws Exception {
        ModifyResult r = edits.modify(
                request(2, 1)
                        .setDerivedExitStatus(512)
                        .setComment("looks fine")
                        .setAdminComment("adm")
                        .setSystemComment("sys")
                        .build(),
                ROOT);
        assertThat(r.getJobsList())
                .containsExactly(
                        ModifiedJob.newBuilder().setJobId(1).setSubmitTime(100).build(),
                        ModifiedJob.newBuilder().setJobId(2).setSubmitTime(300).build());
        assertThat(r.getNote()).isEmpty();
        for (int id : new int[] {1, 2}) {
            AccountedJob j = read(id);
            assertThat(List.of(j.getDerivedExitStatus(), j.getComment(), j.getAdminComment(), j.getSystemComment()))
                    .containsExactly(512, "looks fine", "adm", "sys");
        }
        // Only what is given changes; an empty comment clears it.
        edits.modify(request(1).setComment("").build(), ROOT);
        assertThat(read(1).getComment()).isEmpty();
        assertThat(read(1).getAdminComment()).isEqualTo("adm");
        assertThat(read(1).getDerivedExitStatus()).isEqualTo(512);
    }

    @Test
    void aPreviewChangesNothing() throws Exception {
        ModifyResult r =
                edits.modify(request(1).setComment("x").setCommit(false).build(), ROOT);
        assertThat(r.getJobsCount()).isEqualTo(1);
        assertThat(read(1).getComment()).isEmpty();
    }

    @Test
    void theOwnerChangesItsDerivedExitCodeAndCommentButNotAnothersJobNorTheAdminComments() throws Exception {
        assertThat(edits.modify(
                                request(1)
                                        .setDerivedExitStatus(1)
                                        .setComment("mine")
                                        .build(),
                                GINA)
                        .getJobsCount())
                .isEqualTo(1);
        assertThat(read(1).getDerivedExitStatus()).isEqualTo(1);
        assertThat(read(1).getComment()).isEqualTo("mine");
        assertThatThrownBy(() -> edits.modify(request(1).setComment("not mine").build(), BOB))
                .isInstanceOf(JobEdits.Denied.class);
        assertThatThrownBy(() -> edits.modify(request(1).setAdminComment("x").build(), GINA))
                .isInstanceOf(JobEdits.Denied.class);
        assertThat(read(1).getComment()).isEqualTo("mine");
        assertThat(read(1).getAdminComment()).isEmpty();
    }

    @Test
    void anUnknownJobOrANewWckeyChangesNothingAndSaysWhy() throws Exception {
        ModifyResult none = edits.modify(request(99).setComment("x").build(), ROOT);
        assertThat(none.getJobsList()).isEmpty();
        assertThat(none.getNote()).isEqualTo(JobEdits.NO_SUCH_JOB);
        ModifyResult wckey =
                edits.modify(request(1).setWckey("w").setDerivedExitStatus(3).build(), ROOT);
        assertThat(wckey.getJobsList()).isEmpty();
        assertThat(wckey.getNote()).isEqualTo(JobEdits.UNCHANGED);
        assertThat(read(1).getDerivedExitStatus()).isZero();
        assertThatThrownBy(() -> edits.modify(request(1).build(), ROOT)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theLatestRecordOfARequeuedJobIsTheOneChanged() throws Exception {
        JobInfo again = ended(running(pending(1, "a", "gina", 500), 510), JobState.COMPLETED, 0, 600);
        store.apply(batch(cluster, job(3, again)));
        ModifyResult r = edits.modify(request(1).setComment("second").build(), ROOT);
        assertThat(r.getJobs(0).getSubmitTime()).isEqualTo(500);
        List<AccountedJob> runs = queries.find(JobQuery.newBuilder()
                .addClusters(cluster)
                .addJobIds(1)
                .setDuplicates(true)
                .build());
        assertThat(runs).extracting(AccountedJob::getComment).containsExactly("", "second");
    }
}
