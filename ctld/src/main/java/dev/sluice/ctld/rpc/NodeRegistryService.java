package dev.sluice.ctld.rpc;

import static dev.sluice.ctld.loop.LoopAnswers.await;

import dev.sluice.common.error.SlurmException;
import dev.sluice.ctld.control.AllocationProlog;
import dev.sluice.ctld.control.BatchEnds;
import dev.sluice.ctld.control.NodeAddresses;
import dev.sluice.ctld.control.NodeControl;
import dev.sluice.ctld.loop.Command;
import dev.sluice.ctld.loop.ControllerLoop;
import dev.sluice.ctld.state.DaemonReport;
import dev.sluice.ctld.state.NodeEndpoint;
import dev.sluice.ctld.state.NodeEquipment;
import dev.sluice.ctld.state.NodeFacts;
import dev.sluice.ctld.state.NodeView;
import dev.sluice.ctld.wire.WireMapper;
import dev.sluice.protocol.v1.GresFound;
import dev.sluice.protocol.v1.HeartbeatRequest;
import dev.sluice.protocol.v1.HeartbeatResponse;
import dev.sluice.protocol.v1.JobCompleteBatch;
import dev.sluice.protocol.v1.JobCompleteBatchResponse;
import dev.sluice.protocol.v1.JobCompleteRequest;
import dev.sluice.protocol.v1.JobCompleteResponse;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.protocol.v1.NodeRegistryGrpc;
import dev.sluice.protocol.v1.PrologCompleteRequest;
import dev.sluice.protocol.v1.PrologCompleteResponse;
import dev.sluice.protocol.v1.RefusedReport;
import dev.sluice.protocol.v1.RegisterNodeRequest;
import dev.sluice.protocol.v1.RegisterNodeResponse;
import io.grpc.BindableService;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Node daemons register, heartbeat and report job ends here; each call is a loop command. */
public final class NodeRegistryService implements BindableService {
    private static final Logger log = LoggerFactory.getLogger(NodeRegistryService.class);

    /**
     * How soon a node sends again an end that waits for another node's Prolog: the job's end
     * is late by at most this much once the last Prolog is done.
     */
    static final int PROLOG_RETRY_MS = 100;

    /** The IP address the current call came from; absent on transports without one. */
    private static final Context.Key<String> PEER = Context.key("sluice-registration-peer");

    private final ControllerLoop loop;
    private final NodeControl nodes;
    private final String clusterName;
    private final int heartbeatSeconds;
    private final Predicate<String> resolves;

    private NodeReadings readings = new NodeReadings();

    /**
     * @param resolves whether a node address resolves here: {@link #resolves(String)} (name
     *     service), or a test's own
     */
    public NodeRegistryService(
            ControllerLoop loop,
            NodeControl nodes,
            String clusterName,
            int heartbeatSeconds,
            Predicate<String> resolves) {
        this.loop = loop;
        this.nodes = nodes;
        this.clusterName = clusterName;
        this.heartbeatSeconds = heartbeatSeconds;
        this.resolves = resolves;
    }

    /** Heartbeats' CPU load and free memory go to {@code sink} (scontrol show node reads them there). */
    public NodeRegistryService reportingTo(NodeReadings sink) {
        this.readings = java.util.Objects.requireNonNull(sink, "sink is null");
        return this;
    }

    /**
     * The service with each call's source address at hand: a node that names no reachable
     * address is recorded at the one it registered from ({@link NodeAddresses}).
     */
    @Override
    public ServerServiceDefinition bindService() {
        // (The generated base's bindService is final: the calls are an inner class instead.)
        return ServerInterceptors.intercept(new Calls().bindService(), new ServerInterceptor() {
            @Override
            public <Q, R> ServerCall.Listener<Q> interceptCall(
                    ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
                SocketAddress remote = call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR);
                if (!(remote instanceof InetSocketAddress inet) || inet.getAddress() == null) {
                    return next.startCall(call, headers);
                }
                Context context = Context.current().withValue(PEER, literal(inet.getAddress()));
                return Contexts.interceptCall(context, call, headers, next);
            }
        });
    }

    /** An address as NodeAddr holds it: IPv4 dotted, IPv6 without its zone. */
    static String literal(InetAddress address) {
        String text = address.getHostAddress();
        int zone = text.indexOf('%');
        return zone >= 0 ? text.substring(0, zone) : text;
    }

    /** Whether {@code addr} resolves through the name service. */
    public static boolean resolves(String addr) {
        try {
            InetAddress.getAllByName(addr);
            return true;
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private final class Calls extends NodeRegistryGrpc.NodeRegistryImplBase {
        @Override
        public void register(RegisterNodeRequest request, StreamObserver<RegisterNodeResponse> observer) {
            NodeAddresses.Choice addr = NodeAddresses.choose(
                    request.getName(),
                    request.getAddr(),
                    loop.image().node(request.getName()).map(NodeView::node),
                    Optional.ofNullable(PEER.get()),
                    resolves);
            addr.passedOver().ifPresent(log::warn);
            NodeControl.Registration reg = new NodeControl.Registration(
                    request.getName(),
                    new NodeEndpoint(request.getHostname(), addr.addr(), request.getPort()),
                    new NodeEquipment(
                            WireMapper.toDomain(request.getHardware()),
                            request.getHardware().getFeaturesList(),
                            request.getHardware().getGres()),
                    new DaemonReport(
                            request.getBootTime(),
                            request.getVersion(),
                            new NodeFacts(request.getArch(), request.getOs(), request.getSlurmdStartTime())),
                    request.getDynamic(),
                    new HashSet<>(request.getRunningJobIdsList()),
                    found(request));
            try {
                NodeControl.RegistrationAnswer answer =
                        await(loop.submit((state, now) -> nodes.register(state, reg, now)));
                observer.onNext(RegisterNodeResponse.newBuilder()
                        .setClusterName(clusterName)
                        .setHeartbeatIntervalSeconds(heartbeatSeconds)
                        .addAllOrphanJobIds(answer.orphanJobs())
                        .build());
                observer.onCompleted();
            } catch (SlurmException e) {
                observer.onError(Status.FAILED_PRECONDITION
                        .withDescription(e.getMessage())
                        .asRuntimeException());
            }
        }

        @Override
        public void heartbeat(HeartbeatRequest request, StreamObserver<HeartbeatResponse> observer) {
            readings.heard(request.getName(), request.getCpuLoad(), request.getFreeMemoryMb());
            boolean again = await(loop.submit((state, now) -> nodes.heartbeat(state, request.getName(), now)));
            observer.onNext(HeartbeatResponse.newBuilder().setReregister(again).build());
            observer.onCompleted();
        }

        @Override
        public void jobComplete(JobCompleteRequest request, StreamObserver<JobCompleteResponse> observer) {
            Set<String> awaited = await(loop.submit(ended(request)));
            if (!awaited.isEmpty()) {
                // A node daemon of before the batch call: it sends the report again on its next
                // round.
                observer.onError(Status.UNAVAILABLE
                        .withDescription(awaitedMessage(request, awaited))
                        .asRuntimeException());
                return;
            }
            observer.onNext(JobCompleteResponse.getDefaultInstance());
            observer.onCompleted();
        }

        @Override
        public void prologComplete(PrologCompleteRequest request, StreamObserver<PrologCompleteResponse> observer) {
            String node = request.getNodeName();
            int jobId = (int) request.getJobId();
            await(loop.submit((state, now) -> request.getStatus() == 0
                    ? AllocationProlog.prologDone(state, node, jobId, request.getRestartCount(), now)
                    : AllocationProlog.prologFailed(
                            state, node, jobId, request.getRestartCount(), nodes.slurmUser(), now)));
            observer.onNext(PrologCompleteResponse.getDefaultInstance());
            observer.onCompleted();
        }

        @Override
        public void jobsComplete(JobCompleteBatch batch, StreamObserver<JobCompleteBatchResponse> observer) {
            List<CompletableFuture<Set<String>>> answers = loop.submitAll(batch.getReportsList().stream()
                    .map(NodeRegistryService.this::ended)
                    .toList());
            JobCompleteBatchResponse.Builder response = JobCompleteBatchResponse.newBuilder();
            for (int i = 0; i < answers.size(); i++) {
                try {
                    Set<String> awaited = await(answers.get(i));
                    if (!awaited.isEmpty()) {
                        response.addRefused(RefusedReport.newBuilder()
                                .setJobId(batch.getReports(i).getJobId())
                                .setMessage(awaitedMessage(batch.getReports(i), awaited))
                                .setRetryAfterMs(PROLOG_RETRY_MS));
                    }
                } catch (SlurmException e) {
                    response.addRefused(RefusedReport.newBuilder()
                            .setJobId(batch.getReports(i).getJobId())
                            .setMessage(e.getMessage()));
                }
            }
            observer.onNext(response.build());
            observer.onCompleted();
        }
    }

    private static String awaitedMessage(JobCompleteRequest request, Set<String> awaited) {
        return "the end of job " + request.getJobId() + " waits for the Prolog on " + String.join(",", awaited);
    }

    /**
     * The loop command a node's report of a job's end makes; it answers the nodes whose Prolog
     * the end waits for ({@link BatchEnds#reported}), empty once taken.
     */
    private Command<Set<String>> ended(JobCompleteRequest request) {
        var endState = request.getEndState() == JobState.JOB_STATE_UNSPECIFIED
                ? null
                : WireMapper.toDomain(request.getEndState());
        BatchEnds.NodeScripts scripts = request.getPrologFailed()
                ? BatchEnds.NodeScripts.PROLOG_FAILED
                : request.getEpilogFailed() ? BatchEnds.NodeScripts.EPILOG_FAILED : BatchEnds.NodeScripts.OK;
        return (state, now) -> {
            var result = BatchEnds.reported(
                    state,
                    new BatchEnds.Report(
                            request.getNodeName(),
                            (int) request.getJobId(),
                            request.getRestartCount(),
                            request.getExitStatus(),
                            endState,
                            scripts),
                    nodes.slurmUser(),
                    now);
            if (log.isDebugEnabled()
                    && result.response().isEmpty()
                    && result.records().isEmpty()
                    && result.softChanges().isEmpty()) {
                // A late or repeated report (a run already ended or requeued): slurmctld too
                // notes these at debug level only.
                var job = state.job((int) request.getJobId());
                log.debug(
                        "end of job {} (run {}) from {} changes nothing: the job is {}",
                        request.getJobId(),
                        request.getRestartCount(),
                        request.getNodeName(),
                        job == null
                                ? "unknown"
                                : job.status().state() + " on "
                                        + (job.isRunning() ? job.allocation().batchHost() : "-") + " in run "
                                        + job.run().restartCount());
            }
            return result;
        };
    }

    /** Detected resources, summed per GRES name; absent from daemons that do not report them. */
    static Optional<NodeControl.Found> found(RegisterNodeRequest request) {
        if (!request.hasDetected() || request.getDetected().getCpus() == 0) {
            return Optional.empty();
        }
        Map<String, Long> gres = new LinkedHashMap<>();
        for (GresFound g : request.getGresFoundList()) {
            gres.merge(g.getName(), g.getCount(), Long::sum);
        }
        return Optional.of(new NodeControl.Found(WireMapper.toDomain(request.getDetected()), gres));
    }
}
