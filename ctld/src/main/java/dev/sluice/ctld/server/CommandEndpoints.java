package dev.sluice.ctld.server;

import dev.sluice.common.auth.RequestAuthenticator;
import dev.sluice.common.auth.UserDb;
import dev.sluice.ctld.accounting.AccountingPipeline;
import dev.sluice.ctld.config.CtldConfig;
import dev.sluice.ctld.rpc.ClientApiHandler;
import dev.sluice.ctld.rpc.ClientApiHandlerBuilder;
import dev.sluice.ctld.rpc.CommandGate;
import dev.sluice.ctld.rpc.FrameServer;
import dev.sluice.ctld.rpc.GrpcClientApi;
import dev.sluice.ctld.rpc.GrpcTimingInterceptor;
import dev.sluice.ctld.rpc.NodeReadings;
import dev.sluice.ctld.rpc.NodeRegistryService;
import dev.sluice.ctld.rpc.Reconfigurer;
import dev.sluice.ctld.rpc.RpcTimings;
import dev.sluice.ctld.rpc.UnixCommandServer;
import dev.sluice.ctld.step.StepService;
import dev.sluice.protocol.auth.DaemonAuth;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the controller is asked: the client commands' framed socket and local command socket,
 * and the gRPC server of the client API and of the node daemons' registry, all in front of one
 * {@link ClientApiHandler}.
 */
final class CommandEndpoints implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(CommandEndpoints.class);
    private static final int HEARTBEAT_SECONDS = 5;

    private final FrameServer frames;
    private final UnixCommandServer local;
    private final Server grpc;
    final int commandPort;
    /** What {@code scontrol reconfigure} calls on this controller. */
    final Reconfigurer reconfigurer;

    private CommandEndpoints(
            FrameServer frames, UnixCommandServer local, Server grpc, int commandPort, Reconfigurer reconfigurer) {
        this.frames = frames;
        this.local = local;
        this.grpc = grpc;
        this.commandPort = commandPort;
        this.reconfigurer = reconfigurer;
    }

    /** @param reloader re-reads the files for {@code scontrol reconfigure}; null refuses it */
    static CommandEndpoints open(
            CtldConfig config, String bindHost, ControllerCore core, ConfigReloader reloader, InstantSource clock)
            throws IOException, InterruptedException {
        long startTime = clock.instant().getEpochSecond();
        UserDb users = UserDb.system();
        RequestAuthenticator authenticator = new RequestAuthenticator(
                config.access().clusterKeys(),
                config.security().userTokens(),
                users,
                CtldServer.AUDIENCE,
                config.security().slurmUser());
        Reconfigurer reconfigurer = reloader == null
                ? Reconfigurer.fixed(
                        config.files().configFiles(), config.files().showConfig())
                : reloader.against(core.loop, core.dispatcher, core.auth, core.jobs, authenticator);
        // Filled as the sockets bind, before either port is told to anyone.
        AtomicIntegerArray boundPorts = new AtomicIntegerArray(2);
        if (!config.controller().portsAsFiles()
                || config.controller().slurmctldPort() == 0
                || config.controller().grpcPort() == 0) {
            reconfigurer = new ServedPorts(reconfigurer, () -> boundPorts.get(0), () -> boundPorts.get(1));
        }
        NodeReadings readings = new NodeReadings();
        AccountingPipeline backlog = core.accounting;
        ClientApiHandlerBuilder handlerParts = ClientApiHandler.builder(
                        core.loop, core.jobs, core.nodes, config, startTime, reconfigurer)
                .readings(readings)
                .statistics(core.statistics, () -> backlog == null ? 0 : backlog.depth())
                .stateSaves(core.saves)
                .operators(operatorUids(config, users));
        if (core.dispatcher != null) {
            // Steps run on real node daemons; a simulation (nodeEffects) has none to run them.
            handlerParts.steps(new StepService(core.loop, core.dispatcher));
        }
        ClientApiHandler handler = handlerParts.build();
        // Metrics hear of every request served, on the command socket and over gRPC alike.
        RpcTimings timings = core.metrics == null ? RpcTimings.NONE : core.metrics::rpcServed;
        // Credentials are about real time, whatever clock drives the scheduler (a simulation's).
        CommandGate gate = new CommandGate(handler, authenticator, InstantSource.system(), timings);
        FrameServer frames = new FrameServer(gate);
        InetSocketAddress bound =
                frames.start(new InetSocketAddress(bindHost, config.controller().slurmctldPort()));
        boundPorts.set(0, bound.getPort());
        UnixCommandServer local =
                new UnixCommandServer(gate, users, config.controller().controlHost());
        String socket = config.security().commandSocket();
        try {
            if (!socket.isEmpty()) {
                local.start(Path.of(socket));
            }
        } catch (IOException | RuntimeException e) {
            // Local users then need a token or the key, as remote ones do; the daemon still serves.
            log.warn("no local command socket at {}: {}", socket, e.getMessage());
        }
        NettyServerBuilder grpcBuilder = NettyServerBuilder.forAddress(
                        new InetSocketAddress(bindHost, config.controller().grpcPort()))
                .executor(Executors.newVirtualThreadPerTaskExecutor());
        if (core.metrics != null) {
            grpcBuilder.intercept(new GrpcTimingInterceptor(timings));
        }
        Server grpc = grpcBuilder
                .addService(ServerInterceptors.intercept(
                        new GrpcClientApi(handler),
                        GrpcClientApi.authenticatingInterceptor(authenticator, InstantSource.system())))
                .addService(core.auth.protect(
                        new NodeRegistryService(
                                        core.loop,
                                        core.nodes,
                                        config.clusterName(),
                                        heartbeatSeconds(config.timers().slurmdTimeoutSeconds()),
                                        NodeRegistryService::resolves)
                                .reportingTo(readings),
                        DaemonAuth.CTLD))
                .build()
                .start();
        boundPorts.set(1, grpc.getPort());
        return new CommandEndpoints(frames, local, grpc, bound.getPort(), reconfigurer);
    }

    /** Root and SlurmUser; a SlurmUser this host does not know adds nobody. */
    static Set<Integer> operatorUids(CtldConfig config, UserDb users) {
        Set<Integer> uids = new HashSet<>();
        uids.add(0);
        String slurmUser = config.security().slurmUser();
        users.byName(slurmUser)
                .ifPresentOrElse(
                        a -> uids.add((int) a.uid()),
                        () -> log.warn("SlurmUser {} is not a user of this host; only root is an operator", slurmUser));
        return uids;
    }

    /**
     * Nodes beat at least three times per SlurmdTimeout, so one late beat on a busy machine does
     * not make a node DOWN.
     */
    static int heartbeatSeconds(int slurmdTimeoutSeconds) {
        return Math.max(1, Math.min(HEARTBEAT_SECONDS, slurmdTimeoutSeconds / 3));
    }

    int grpcPort() {
        return grpc.getPort();
    }

    @Override
    public void close() {
        grpc.shutdownNow();
        frames.close();
        local.close();
    }
}
