package dev.sluice.ctld.rpc;

import static dev.sluice.ctld.rpc.SecuredController.ALICE;
import static dev.sluice.ctld.rpc.SecuredController.request;
import static dev.sluice.ctld.rpc.SecuredController.submit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.GetJobsRequest;
import dev.sluice.protocol.v1.JobInfo;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * slurm.conf {@code JobRequeue}: the default for batch jobs that say neither {@code --requeue}
 * nor {@code --no-requeue} (slurm.conf(5); 1 unless set), shown as {@code Requeue=} by scontrol.
 */
class TestJobRequeueConf {
    @TempDir
    Path dir;

    private static ClientRequest submitWith(boolean set, boolean requeue) {
        ClientRequest plain = submit("j");
        return plain.toBuilder()
                .setSubmitBatchJob(plain.getSubmitBatchJob().toBuilder()
                        .setSpec(plain.getSubmitBatchJob().getSpec().toBuilder()
                                .setRequeue(requeue)
                                .setRequeueSet(set)))
                .build();
    }

    private static boolean requeueOf(SecuredController ctld, ClientRequest submit) throws Exception {
        int id = ctld.call(submit, ALICE).getSubmitBatchJob().getJobId();
        JobInfo job = ctld.call(
                        request()
                                .setGetJobs(GetJobsRequest.newBuilder().addJobIds(id))
                                .build(),
                        ALICE)
                .getGetJobs()
                .getJobs(0);
        return job.getRequeue();
    }

    @Test
    void jobRequeueZeroMakesUnsaidJobsNotRequeueable() throws Exception {
        try (SecuredController ctld = new SecuredController(dir, "JobRequeue=0")) {
            assertThat(requeueOf(ctld, submitWith(false, true))).isFalse();
            assertThat(requeueOf(ctld, submitWith(true, true))).isTrue();
            assertThat(requeueOf(ctld, submitWith(true, false))).isFalse();
        }
    }

    @Test
    void byDefaultJobsMayBeRequeued() throws Exception {
        try (SecuredController ctld = new SecuredController(dir, "")) {
            assertThat(requeueOf(ctld, submitWith(false, true))).isTrue();
            assertThat(requeueOf(ctld, submitWith(true, false))).isFalse();
        }
    }
}
