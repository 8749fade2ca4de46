package dev.sluice.restd.slurm;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.util.RawValue;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.GetJobsRequest;
import dev.sluice.protocol.v1.GetJobsResponse;
import dev.sluice.restd.controller.ControllerSession;
import dev.sluice.restd.http.CoalescedCalls;
import java.util.concurrent.Executor;

/**
 * {@code GET jobs} for many pollers. Requests presenting the same token share one controller ask
 * at a time (CoalescedCalls); the queue as everyone may see it is turned into JSON once per
 * controller version and the text reused until the controller says it changed, so a poll of an
 * unchanged queue costs the controller a version check and this daemon a copy of the text. A
 * private view (PrivateData=jobs, a user who is not an operator) has no version and is rendered
 * for each ask. The JSON is the same for every data parser version (ApiVersion).
 */
final class JobListings {
    /** The jobs array as text, for the controller answer named {@code version} (0: unshared). */
    record Listing(long version, RawValue jobs, long updateTime) {}

    private static final ObjectMapper JSON = new ObjectMapper();

    private final CoalescedCalls<String, Listing> calls;
    private volatile Listing shared = new Listing(0, new RawValue(new SerializedString("[]")), 0);

    JobListings(Executor executor) {
        this.calls = new CoalescedCalls<>(requireNonNull(executor, "executor is null"));
    }

    /** The whole queue as the holder of {@code credential} may see it, asked after this call began. */
    Listing all(String credential, ControllerSession controller) throws ControllerException {
        try {
            return calls.get(credential, () -> ask(controller));
        } catch (ControllerException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private Listing ask(ControllerSession controller) throws ControllerException {
        Listing held = shared;
        GetJobsResponse answer = controller
                .call(ClientRequest.newBuilder()
                        .setGetJobs(GetJobsRequest.newBuilder().setKnownVersion(held.version())))
                .getGetJobs();
        if (answer.getUnchanged()) {
            return held; // the controller's version is still the one sent: held's
        }
        Listing fresh = new Listing(answer.getVersion(), render(answer), answer.getUpdateTime());
        if (fresh.version() != 0) {
            shared = fresh;
        }
        return fresh;
    }

    private static RawValue render(GetJobsResponse answer) {
        ArrayNode jobs = JsonNodeFactory.instance.arrayNode();
        answer.getJobsList().forEach(j -> jobs.add(JobJson.of(j)));
        try {
            // SerializedString keeps the UTF-8 bytes: each reply copies them, none encodes again.
            return new RawValue(new SerializedString(JSON.writeValueAsString(jobs)));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("a job did not turn into JSON", e);
        }
    }
}
