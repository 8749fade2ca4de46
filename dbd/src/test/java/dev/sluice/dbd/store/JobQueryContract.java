package dev.sluice.dbd.store;

import static dev.sluice.dbd.store.Records.batch;
import static dev.sluice.dbd.store.Records.batchStep;
import static dev.sluice.dbd.store.Records.ended;
import static dev.sluice.dbd.store.Records.job;
import static dev.sluice.dbd.store.Records.pending;
import static dev.sluice.dbd.store.Records.running;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.protocol.v1.AccountedJob;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.JobQuery;
import dev.sluice.protocol.v1.JobState;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What sacct's filters find in the stored jobs, on each supported database: users, ids, accounts,
 * the time window, states during the window, an array's tasks, and allocations without steps.
 */
abstract class JobQueryContract extends JobStoreContract {
    @Test
    void queriesFilterByUserStateJobAndWindow() throws Exception {
        JobInfo a = ended(running(pending(1, "a", "gina", 100), 110), JobState.COMPLETED, 0, 200);
        JobInfo b = ended(running(pending(2, "b", "hank", 300), 310), JobState.CANCELLED, 15, 400);
        JobInfo c = pending(3, "c", "gina", 500);
        store.apply(batch(cluster, job(1, a), job(2, b), job(3, c)));
        assertThat(ids(JobQuery.newBuilder().addUsers("gina"))).containsExactly(1, 3);
        assertThat(ids(JobQuery.newBuilder().addJobIds(3).addJobIds(1))).containsExactly(1, 3);
        // Known during [250, 350]: b (submitted 300); a ended at 200, c submitted at 500.
        assertThat(ids(JobQuery.newBuilder().setWindowStart(250).setWindowEnd(350)))
                .containsExactly(2);
        // Still pending jobs are known at any later time.
        assertThat(ids(JobQuery.newBuilder().setWindowStart(10_000))).containsExactly(3);
        assertThat(ids(JobQuery.newBuilder().addAccounts("nobody"))).isEmpty();
    }

    @Test
    void statesMeanInThatStateDuringTheWindow() throws Exception {
        JobInfo a = ended(running(pending(1, "a", "kai", 100), 110), JobState.COMPLETED, 0, 200);
        JobInfo b = ended(running(pending(2, "b", "kai", 300), 310), JobState.CANCELLED, 15, 400);
        JobInfo c = pending(3, "c", "kai", 500);
        // Held back (a requeued job) until after the window, or held (eligible 0): not pending.
        JobInfo d = pending(4, "d", "kai", 550).toBuilder().setEligibleTime(700).build();
        JobInfo e = pending(5, "e", "kai", 550).toBuilder().setEligibleTime(0).build();
        store.apply(batch(cluster, job(1, a), job(2, b), job(3, c), job(4, d), job(5, e)));
        // b ran from 310 to 400; a had ended at 200.
        assertThat(ids(JobQuery.newBuilder()
                        .addStates(JobState.RUNNING)
                        .setWindowStart(305)
                        .setWindowEnd(350)))
                .containsExactly(2);
        // Pending during [150, 600]: b until 310, c still; a had started at 110.
        assertThat(ids(JobQuery.newBuilder()
                        .addStates(JobState.PENDING)
                        .setWindowStart(150)
                        .setWindowEnd(600)))
                .containsExactly(2, 3);
        // Final states count when the job ended inside the window.
        assertThat(ids(JobQuery.newBuilder().addStates(JobState.CANCELLED).setWindowEnd(399)))
                .isEmpty();
        assertThat(ids(JobQuery.newBuilder().addStates(JobState.CANCELLED).setWindowEnd(400)))
                .containsExactly(2);
        assertThat(ids(JobQuery.newBuilder()
                        .addStates(JobState.COMPLETED)
                        .addStates(JobState.CANCELLED)
                        .setWindowEnd(1000)))
                .containsExactly(1, 2);
        // "now" alone (sacct -s without -S): only what is in the state at that instant.
        assertThat(ids(JobQuery.newBuilder()
                        .addStates(JobState.CANCELLED)
                        .setWindowStart(1000)
                        .setWindowEnd(1000)))
                .isEmpty();
    }

    @Test
    void anArraysTasksAreFoundByTheArrayIdInTaskOrder() throws Exception {
        JobInfo meta = pending(6, "arr", "lee", 100).toBuilder()
                .setArrayJobId(6)
                .setArrayTaskId(-1)
                .setDisplayId("6_[1-3%2]")
                .build();
        JobInfo t1 = running(meta, 110).toBuilder()
                .setJobId(7)
                .setArrayTaskId(1)
                .setDisplayId("6_1")
                .build();
        JobInfo rest = meta.toBuilder().setDisplayId("6_[2-3%2]").build();
        store.apply(batch(cluster, job(1, meta), job(2, t1), job(3, rest), job(4, pending(8, "other", "lee", 100))));
        List<AccountedJob> jobs = queries.find(
                JobQuery.newBuilder().addClusters(cluster).addJobIds(6).build());
        assertThat(jobs).extracting(AccountedJob::getDisplayId).containsExactly("6_[2-3%2]", "6_1");
        assertThat(jobs).extracting(AccountedJob::getArrayJobId).containsOnly(6);
        assertThat(jobs.get(1).getJobId()).isEqualTo(7);
        assertThat(jobs.get(1).getArrayTaskId()).isEqualTo(1);
        assertThat(ids(JobQuery.newBuilder().addJobIds(8))).containsExactly(8);
    }

    @Test
    void allocationsOnlyLeavesStepsOut() throws Exception {
        JobInfo r = running(pending(1, "a", "ian", 100), 110);
        store.apply(batch(cluster, job(1, r), batchStep(2, r)));
        assertThat(queries.find(JobQuery.newBuilder()
                                .addClusters(cluster)
                                .setAllocationsOnly(true)
                                .build())
                        .get(0)
                        .getStepsCount())
                .isZero();
        assertThat(all().get(0).getStepsCount()).isEqualTo(1);
    }
}
