package dev.sluice.ctld.dispatch;

import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.NodeView;
import dev.sluice.protocol.auth.DaemonAuth;
import dev.sluice.protocol.auth.JobCredentials;
import dev.sluice.protocol.v1.LaunchBatchJobRequest;
import dev.sluice.protocol.v1.LaunchBatchJobsResponse;
import dev.sluice.protocol.v1.LaunchOutcome;
import dev.sluice.protocol.v1.NodeControlGrpc;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Launches of several batch jobs on one node in one call ({@code LaunchBatchJobs}), each with
 * its own job credential as a lone launch has. What the call does not launch (a refused
 * credential, a launch that failed there, the call itself failing) goes the lone way after it,
 * with that way's tries and its requeue when they run out; a node launches a job only once, so
 * a launch sent both ways runs once. A node daemon that does not know the call (an older one)
 * gets lone launches from then on.
 */
final class JointLaunches {
    private static final Logger log = LoggerFactory.getLogger(JointLaunches.class);
    private static final MethodDescriptor<byte[], LaunchBatchJobsResponse> LAUNCHES_SERIALISED =
            DaemonAuth.serialised(NodeControlGrpc.getLaunchBatchJobsMethod());

    private final DaemonAuth auth;
    private final LaunchRequests requests;
    private final ExecutorService workers;
    private final Function<NodeView, NodeControlGrpc.NodeControlBlockingStub> stubs;
    private final BiConsumer<Job, ClusterImage> alone;
    private final Set<String> oneByOne = ConcurrentHashMap.newKeySet();

    /**
     * @param stubs a node's stub, carrying this controller's credential
     * @param alone the lone launch, for what a joint call did not launch
     */
    JointLaunches(
            DaemonAuth auth,
            LaunchRequests requests,
            ExecutorService workers,
            Function<NodeView, NodeControlGrpc.NodeControlBlockingStub> stubs,
            BiConsumer<Job, ClusterImage> alone) {
        this.auth = auth;
        this.requests = requests;
        this.workers = workers;
        this.stubs = stubs;
        this.alone = alone;
    }

    /** Whether {@code host} takes joint launches (false once it answered that it does not). */
    boolean accepts(String host) {
        return !oneByOne.contains(host);
    }

    /** Launches {@code jobs}, each running with {@code host} its batch host, off the caller's thread. */
    void send(String host, List<Job> jobs, ClusterImage image) {
        NodeView node = image.node(host).orElse(null);
        if (node == null) {
            jobs.forEach(job -> alone.accept(job, image));
            return;
        }
        List<LaunchBatchJobRequest> built =
                jobs.stream().map(job -> requests.of(job, image, host)).toList();
        workers.execute(() -> {
            for (Job job : deliver(host, node, jobs, built)) {
                alone.accept(job, image);
            }
        });
    }

    /** Sends the launches in one call; returns the jobs it did not launch. */
    private List<Job> deliver(String host, NodeView node, List<Job> jobs, List<LaunchBatchJobRequest> built) {
        try {
            Instant now = auth.clock().instant();
            List<byte[]> signed = new ArrayList<>(built.size());
            for (LaunchBatchJobRequest request : built) {
                signed.add(JobCredentials.signedBytes(request, host, auth.credentials(), now));
            }
            NodeControlGrpc.NodeControlBlockingStub stub = stubs.apply(node).withDeadlineAfter(30, TimeUnit.SECONDS);
            LaunchBatchJobsResponse answer = ClientCalls.blockingUnaryCall(
                    stub.getChannel(), LAUNCHES_SERIALISED, stub.getCallOptions(), JobCredentials.together(signed));
            List<Job> again = new ArrayList<>();
            for (int i = 0; i < jobs.size(); i++) {
                LaunchOutcome outcome = i < answer.getOutcomesCount() ? answer.getOutcomes(i) : null;
                if (outcome == null
                        || outcome.getJobId() != jobs.get(i).id()
                        || !outcome.getError().isEmpty()) {
                    log.warn(
                            "the launch of job {} on {} failed: {}",
                            jobs.get(i).id(),
                            host,
                            outcome == null ? "no answer for it" : outcome.getError());
                    again.add(jobs.get(i));
                }
            }
            return again;
        } catch (RuntimeException e) {
            if (e instanceof StatusRuntimeException s && s.getStatus().getCode() == Status.Code.UNIMPLEMENTED) {
                oneByOne.add(host);
                log.info("node {} takes launches one at a time (an older sluice-noded)", host);
            } else {
                log.warn(
                        "the launches of {} jobs on {} failed: {}; launching each alone",
                        jobs.size(),
                        host,
                        e.getMessage());
            }
            return jobs;
        }
    }
}
