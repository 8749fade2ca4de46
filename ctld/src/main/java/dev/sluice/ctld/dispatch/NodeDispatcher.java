package dev.sluice.ctld.dispatch;

import static java.util.Objects.requireNonNull;

import dev.sluice.ctld.config.CtldConfig;
import dev.sluice.ctld.control.JobRunControl;
import dev.sluice.ctld.loop.EffectSink;
import dev.sluice.ctld.loop.LoopInbox;
import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.Effect;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.NodeView;
import dev.sluice.ctld.wire.WireMapper;
import dev.sluice.protocol.auth.DaemonAuth;
import dev.sluice.protocol.auth.JobCredentials;
import dev.sluice.protocol.v1.LaunchBatchJobRequest;
import dev.sluice.protocol.v1.LaunchBatchJobResponse;
import dev.sluice.protocol.v1.NodeControlGrpc;
import dev.sluice.protocol.v1.NodeSignalJobRequest;
import dev.sluice.protocol.v1.SuspendAction;
import dev.sluice.protocol.v1.TerminateJobRequest;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries controller effects to node daemons over gRPC, off the controller thread. A launch
 * that cannot reach its node after a few tries requeues the job (or fails it with NODE_FAIL
 * when it may not be requeued); kills and signals are best effort because a node that comes
 * back reports its jobs and is told to kill orphans. Every call carries this controller's
 * credential; every launch a job credential for its node, signed afresh for each attempt (a node
 * accepts each credential once).
 */
public final class NodeDispatcher implements EffectSink, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(NodeDispatcher.class);
    private static final int LAUNCH_ATTEMPTS = 5;
    private static final int SIGSTOP = 19;
    private static final int SIGCONT = 18;
    private static final MethodDescriptor<byte[], LaunchBatchJobResponse> LAUNCH_SERIALISED =
            DaemonAuth.serialised(NodeControlGrpc.getLaunchBatchJobMethod());

    private final CtldConfig config;
    private final DaemonAuth auth;
    private final Map<String, ManagedChannel> channels = new ConcurrentHashMap<>();
    private final ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor();
    private final LaunchRequests requests;
    private final JointLaunches together;
    /** The loop's front, made before the loop (which needs this dispatcher as its sink). */
    private final LoopInbox loop;

    /** @param loop where a launch that failed is given back, and the latest image read */
    public NodeDispatcher(CtldConfig config, DaemonAuth auth, LoopInbox loop) {
        this.config = config;
        this.requests = new LaunchRequests(config);
        this.together = new JointLaunches(auth, requests, workers, this::stub, this::launch);
        this.auth = auth;
        this.loop = requireNonNull(loop, "loop is null");
    }

    /**
     * A batch's effects: the batch jobs it starts on one node go to that node in one call (a
     * pass that starts an array's tasks would otherwise make a call, with its credential, per
     * task); launches are held back only until the next effect of another kind, so a node sees
     * a job's launch before anything the batch does to it next.
     */
    @Override
    public void executeAll(List<Effect> effects, ClusterImage image) {
        Map<String, List<Job>> launches = new LinkedHashMap<>();
        for (Effect effect : effects) {
            EffectSink.carryOut(effect, () -> {
                Optional<Job> alone = effect instanceof Effect.LaunchBatch e
                        ? image.job(e.jobId()).filter(job -> launchesAlone(job, image))
                        : Optional.empty();
                if (alone.isPresent()) {
                    launches.computeIfAbsent(alone.get().allocation().batchHost(), h -> new ArrayList<>())
                            .add(alone.get());
                } else {
                    launchTogether(launches, image);
                    execute(effect, image);
                }
            });
        }
        launchTogether(launches, image);
    }

    /**
     * Whether {@code job}'s start is just its batch launch on its batch host: running, with a
     * script, no Prolog of its own to run elsewhere first, not to be suspended once launched.
     */
    private static boolean launchesAlone(Job job, ClusterImage image) {
        if (!job.isRunning()
                || job.status().state() == dev.sluice.common.slurm.JobState.SUSPENDED
                || job.request().launch().script().isEmpty()) {
            return false;
        }
        String host = job.allocation().batchHost();
        return image.prologRunsOn(job).stream().allMatch(host::equals);
    }

    private void launchTogether(Map<String, List<Job>> launches, ClusterImage image) {
        launches.forEach((host, jobs) -> {
            // Held back, a launch is no longer guarded by its own effect's carryOut: one host's
            // failure must still not keep the others' launches, or the batch's next effects, back.
            try {
                if (jobs.size() == 1 || !together.accepts(host)) {
                    jobs.forEach(job -> launch(job, image));
                } else {
                    together.send(host, jobs, image);
                }
            } catch (RuntimeException e) {
                log.warn(
                        "launches of {} on {} failed",
                        jobs.stream().map(Job::id).toList(),
                        host,
                        e);
            }
        });
        launches.clear();
    }

    @Override
    public void execute(Effect effect, ClusterImage image) {
        switch (effect) {
            case Effect.LaunchBatch e -> image.job(e.jobId()).ifPresent(job -> launch(job, image));
            case Effect.Terminate e ->
                e.nodes()
                        .forEach(n -> target(
                                image,
                                n,
                                stub -> stub.terminateJob(TerminateJobRequest.newBuilder()
                                        .setJobId(e.jobId())
                                        .setReason(WireMapper.toWire(e.reason()))
                                        .setRestartCount(e.restartCount())
                                        .build())));
            case Effect.Signal e ->
                e.nodes()
                        .forEach(n -> target(
                                image,
                                n,
                                stub -> stub.signalJob(NodeSignalJobRequest.newBuilder()
                                        .setJobId(e.jobId())
                                        .setSignal(e.signal())
                                        .setBatchOnly(e.batchOnly())
                                        .setStepsOnly(e.stepsOnly())
                                        .build())));
            case Effect.SignalStep e ->
                e.nodes()
                        .forEach(n -> target(
                                image,
                                n,
                                stub -> stub.signalJob(NodeSignalJobRequest.newBuilder()
                                        .setJobId(e.jobId())
                                        .setStepId(e.stepId())
                                        .setSignal(e.signal())
                                        .setCancelStep(e.cancel())
                                        .build())));
            case Effect.Suspend e ->
                e.nodes()
                        .forEach(n -> target(
                                image,
                                n,
                                stub -> stub.signalJob(NodeSignalJobRequest.newBuilder()
                                        .setJobId(e.jobId())
                                        .setSignal(e.suspend() ? SIGSTOP : SIGCONT)
                                        .setSuspend(
                                                e.suspend()
                                                        ? SuspendAction.SUSPEND_ACTION_SUSPEND
                                                        : SuspendAction.SUSPEND_ACTION_RESUME)
                                        .build())));
            case Effect.KillOrphan e ->
                target(
                        image,
                        e.node(),
                        stub -> stub.terminateJob(TerminateJobRequest.newBuilder()
                                .setJobId(e.jobId())
                                .build()));
        }
    }

    /**
     * A job started to wait for its gang turn (JobLifecycle.suspendedAtStart) is stopped once
     * the node has it, never before; a failure here is not a failed launch.
     */
    private void stopAfterLaunch(NodeView node, Job job) {
        try {
            stub(node)
                    .withDeadlineAfter(10, TimeUnit.SECONDS)
                    .signalJob(NodeSignalJobRequest.newBuilder()
                            .setJobId(job.id())
                            .setSignal(SIGSTOP)
                            .setSuspend(SuspendAction.SUSPEND_ACTION_SUSPEND)
                            .build());
        } catch (RuntimeException e) {
            log.warn("job {} could not be suspended after its launch: {}", job.id(), e.getMessage());
        }
    }

    private void launch(Job job, ClusterImage image) {
        if (!job.isRunning()) {
            return;
        }
        String host = job.allocation().batchHost();
        boolean batch = !job.request().launch().script().isEmpty();
        // PrologFlags=Alloc: the Prolog runs on every node of the allocation now; a batch host
        // runs its own in the job's supervisor, before the script. An allocation (salloc, a lone
        // srun) has no script: its steps come from srun.
        for (String node : job.allocation().nodeNames()) {
            if (image.prologRunsOn(job).contains(node) && !(batch && node.equals(host))) {
                LaunchBatchJobRequest facts = requests.of(job, image, node);
                // Not started after its tries, the job stays with reason Prolog (salloc waits), as
                // for a node that never answers Slurm's prolog launch; a cancel ends it.
                deliver(
                        job,
                        image,
                        node,
                        "the Prolog of job " + job.id(),
                        stub -> stub.runAllocationProlog(JobCredentials.sign(
                                facts, node, auth.credentials(), auth.clock().instant())),
                        () -> log.error("the Prolog of job {} could not be started on {}", job.id(), node));
            }
        }
        if (!batch) {
            return;
        }
        LaunchBatchJobRequest request = requests.of(job, image, host);
        deliver(
                job,
                image,
                host,
                "the launch of job " + job.id(),
                stub -> {
                    // Sent as the bytes its credential was made from (plus the credential), not
                    // serialised again by the call.
                    ClientCalls.blockingUnaryCall(
                            stub.getChannel(),
                            LAUNCH_SERIALISED,
                            stub.getCallOptions(),
                            JobCredentials.signedBytes(
                                    request,
                                    host,
                                    auth.credentials(),
                                    auth.clock().instant()));
                    if (job.status().state() == dev.sluice.common.slurm.JobState.SUSPENDED) {
                        stopAfterLaunch(image.node(host).orElse(null), job);
                    }
                },
                () -> {
                    log.error("job {} could not be launched on {}; giving it back to the queue", job.id(), host);
                    loop.submit((state, now) -> JobRunControl.launchFailed(
                            state, job.id(), job.run().startTime(), now));
                });
    }

    /** One try of a launch on the node's stub, its job credential signed afresh. */
    @FunctionalInterface
    private interface LaunchCall {
        void send(NodeControlGrpc.NodeControlBlockingStub stub);
    }

    /**
     * Carries one launch of {@code job}'s run to {@code host} off the controller thread, tried a
     * few times with a backoff and a credential signed afresh each time; a retry is dropped once
     * the run is over (the node did run it and its end came back, or the job moved on: a retry
     * would start an ended run again). {@code gaveUp} runs after the last failed try.
     */
    private void deliver(Job job, ClusterImage image, String host, String what, LaunchCall call, Runnable gaveUp) {
        NodeView node = image.node(host).orElse(null);
        workers.execute(() -> {
            for (int attempt = 1; attempt <= LAUNCH_ATTEMPTS; attempt++) {
                if (attempt > 1 && !stillThisRun(job)) {
                    return;
                }
                try {
                    call.send(stub(node).withDeadlineAfter(10, TimeUnit.SECONDS));
                    return;
                } catch (RuntimeException e) {
                    log.warn("{} on {} failed (attempt {}): {}", what, host, attempt, e.getMessage());
                    sleepBackoff(attempt);
                }
            }
            gaveUp.run();
        });
    }

    /** Whether the latest image still has {@code job} running in the same run it was launched for. */
    private boolean stillThisRun(Job job) {
        return loop.image()
                .job(job.id())
                .filter(now -> now.isRunning()
                        && now.run().startTime() == job.run().startTime()
                        && now.run().restartCount() == job.run().restartCount())
                .isPresent();
    }

    private static void sleepBackoff(int attempt) {
        try {
            Thread.sleep(200L << Math.min(attempt, 5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Starts a step's tasks on one node and returns once they run: srun waits on it, so a node
     * that cannot start them fails the step at once.
     */
    public void launchStep(ClusterImage image, String nodeName, dev.sluice.protocol.v1.LaunchStepRequest request) {
        NodeView node =
                image.node(nodeName).orElseThrow(() -> new IllegalStateException("node " + nodeName + " is not known"));
        stub(node)
                .withDeadlineAfter(30, TimeUnit.SECONDS)
                .launchStep(JobCredentials.sign(
                        request, nodeName, auth.credentials(), auth.clock().instant()));
    }

    /** sstat: what the job's steps use on one node now (waits up to 10 seconds for the node). */
    public dev.sluice.protocol.v1.NodeStepUsageResponse stepUsage(ClusterImage image, String nodeName, int jobId) {
        NodeView node =
                image.node(nodeName).orElseThrow(() -> new IllegalStateException("node " + nodeName + " is not known"));
        return stub(node)
                .withDeadlineAfter(10, TimeUnit.SECONDS)
                .stepUsage(dev.sluice.protocol.v1.NodeStepUsageRequest.newBuilder()
                        .setJobId(jobId)
                        .build());
    }

    private void target(
            ClusterImage image,
            String nodeName,
            java.util.function.Consumer<NodeControlGrpc.NodeControlBlockingStub> call) {
        NodeView node = image.node(nodeName).orElse(null);
        if (node == null) {
            return;
        }
        workers.execute(() -> {
            try {
                call.accept(stub(node).withDeadlineAfter(10, TimeUnit.SECONDS));
            } catch (RuntimeException e) {
                log.warn("request to node {} failed: {}", nodeName, e.getMessage());
            }
        });
    }

    /** {@code scontrol reconfigure}: every responding node fetches its files again and re-registers. */
    public void reconfigureNodes(ClusterImage image) {
        for (NodeView node : image.nodes()) {
            if (node.responding()) {
                target(
                        image,
                        node.name(),
                        stub -> stub.reconfigure(dev.sluice.protocol.v1.NodeReconfigureRequest.getDefaultInstance()));
            }
        }
    }

    private NodeControlGrpc.NodeControlBlockingStub stub(NodeView node) {
        String addr = node.node().endpoint().addr();
        // An IPv6 literal (a node recorded at the address it registered from) takes brackets.
        String target = (addr.contains(":") ? "[" + addr + "]" : addr) + ":"
                + node.node().endpoint().port();
        ManagedChannel channel = channels.computeIfAbsent(
                target, t -> NettyChannelBuilder.forTarget(t).usePlaintext().build());
        return NodeControlGrpc.newBlockingStub(channel).withInterceptors(auth.client(DaemonAuth.NODED));
    }

    @Override
    public void close() {
        workers.shutdownNow();
        channels.values().forEach(ManagedChannel::shutdownNow);
        log.debug("dispatcher closed ({})", channels.keySet().stream().collect(Collectors.joining(",")));
    }
}
