package dev.sluice.ctld.rpc;

import static dev.sluice.ctld.rpc.SecuredController.ROOT;
import static dev.sluice.ctld.rpc.SecuredController.request;
import static dev.sluice.ctld.rpc.SecuredController.submit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.protocol.v1.GetJobsRequest;
import dev.sluice.protocol.v1.SignalJobRequest;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** squeue's default listing asks only for unfinished jobs; finished ones stay for -t and -j. */
class TestActiveJobsOnly {
    @TempDir
    Path dir;

    private static List<String> names(SecuredController ctld, boolean activeOnly) throws Exception {
        return ctld
                .call(
                        request()
                                .setGetJobs(GetJobsRequest.newBuilder().setActiveOnly(activeOnly))
                                .build(),
                        ROOT)
                .getGetJobs()
                .getJobsList()
                .stream()
                .map(j -> j.getSpec().getName())
                .toList();
    }

    @Test
    void finishedJobsAreLeftOutOnlyWhenAsked() throws Exception {
        try (SecuredController ctld = new SecuredController(dir, "")) {
            int gone = ctld.call(submit("gone"), ROOT).getSubmitBatchJob().getJobId();
            ctld.call(submit("waiting"), ROOT);
            ctld.call(
                    request()
                            .setSignalJob(SignalJobRequest.newBuilder()
                                    .addJobIds(Integer.toString(gone))
                                    .setCancel(true))
                            .build(),
                    ROOT);
            assertThat(names(ctld, false)).containsExactlyInAnyOrder("gone", "waiting");
            assertThat(names(ctld, true)).containsExactly("waiting");
        }
    }
}
