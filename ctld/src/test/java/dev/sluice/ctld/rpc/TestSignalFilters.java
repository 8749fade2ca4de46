package dev.sluice.ctld.rpc;

import static dev.sluice.ctld.rpc.SecuredController.ROOT;
import static dev.sluice.ctld.rpc.SecuredController.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.GetJobsRequest;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.SignalJobRequest;
import dev.sluice.protocol.v1.SignalJobResponse;
import dev.sluice.protocol.v1.SubmitBatchJobRequest;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** scancel's -A, -q, -R, --wckey filters and -i's listing (list_only) in the controller. */
class TestSignalFilters {
    @TempDir
    Path dir;

    private static ClientRequest submit(String name, String account) {
        return request()
                .setSubmitBatchJob(SubmitBatchJobRequest.newBuilder()
                        .setSpec(JobSpec.newBuilder()
                                .setName(name)
                                .setAccount(account)
                                .setScript(com.google.protobuf.ByteString.copyFromUtf8("#!/bin/sh\nsleep 100\n"))
                                .setNumTasks(1)
                                .setWorkDir("/tmp")))
                .build();
    }

    private static List<String> selected(SecuredController ctld, SignalJobRequest.Builder filter) throws Exception {
        SignalJobResponse r = ctld.call(
                        request().setSignalJob(filter.setCancel(true)).build(), ROOT)
                .getSignalJob();
        return r.getResultsList().stream()
                .map(SignalJobResponse.Result::getJobId)
                .toList();
    }

    private static List<String> active(SecuredController ctld) throws Exception {
        return ctld
                .call(
                        request()
                                .setGetJobs(GetJobsRequest.newBuilder().setActiveOnly(true))
                                .build(),
                        ROOT)
                .getGetJobs()
                .getJobsList()
                .stream()
                .map(j -> j.getSpec().getName())
                .toList();
    }

    @Test
    void filtersSelectAndListOnlySignalsNothing() throws Exception {
        try (SecuredController ctld = new SecuredController(dir, "")) {
            int a = ctld.call(submit("a", "proj"), ROOT).getSubmitBatchJob().getJobId();
            ctld.call(submit("b", "other"), ROOT);
            // Listed, not cancelled; scancel lowercases -A, the job's account is compared without case.
            assertThat(selected(
                            ctld,
                            SignalJobRequest.newBuilder()
                                    .setAccountFilter("PROJ")
                                    .setListOnly(true)))
                    .containsExactly(Integer.toString(a));
            assertThat(active(ctld)).containsExactlyInAnyOrder("a", "b");
            // Neither job runs in reservation maint, and Sluice jobs carry no wckey.
            assertThat(selected(
                            ctld,
                            SignalJobRequest.newBuilder()
                                    .setReservationFilter("maint")
                                    .setListOnly(true)))
                    .isEmpty();
            assertThat(selected(
                            ctld,
                            SignalJobRequest.newBuilder().setWckeyFilter("wk").setListOnly(true)))
                    .isEmpty();
            assertThat(selected(
                            ctld,
                            SignalJobRequest.newBuilder()
                                    .setQosFilter("nosuchqos")
                                    .setListOnly(true)))
                    .isEmpty();
            // A named job that does not match is left alone; an unknown id is still answered.
            int b = ctld.call(submit("b2", "other"), ROOT).getSubmitBatchJob().getJobId();
            SignalJobResponse named = ctld.call(
                            request()
                                    .setSignalJob(SignalJobRequest.newBuilder()
                                            .setCancel(true)
                                            .setPartitionFilter("nosuch")
                                            .addJobIds(Integer.toString(b))
                                            .addJobIds("999999"))
                                    .build(),
                            ROOT)
                    .getSignalJob();
            assertThat(named.getResultsList())
                    .extracting(SignalJobResponse.Result::getJobId)
                    .containsExactly("999999");
            assertThat(active(ctld)).containsExactlyInAnyOrder("a", "b", "b2");
            // Without list_only the selected job is cancelled and the other stays.
            assertThat(selected(ctld, SignalJobRequest.newBuilder().setAccountFilter("proj")))
                    .containsExactly(Integer.toString(a));
            assertThat(active(ctld)).containsExactlyInAnyOrder("b", "b2");
        }
    }
}
