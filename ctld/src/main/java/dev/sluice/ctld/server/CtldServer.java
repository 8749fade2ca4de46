package dev.sluice.ctld.server;

import dev.sluice.common.auth.RequestAuthenticator;
import dev.sluice.common.auth.UserDb;
import dev.sluice.ctld.accounting.AccountingPipeline;
import dev.sluice.ctld.accounting.AccountingSettings;
import dev.sluice.ctld.accounting.PolicyPuller;
import dev.sluice.ctld.config.CtldConfig;
import dev.sluice.ctld.control.JobControl;
import dev.sluice.ctld.control.JobPurge;
import dev.sluice.ctld.control.NodeControl;
import dev.sluice.ctld.dispatch.NodeDispatcher;
import dev.sluice.ctld.limits.AccountingPolicy;
import dev.sluice.ctld.limits.PolicyView;
import dev.sluice.ctld.loop.Command;
import dev.sluice.ctld.loop.ControllerLoop;
import dev.sluice.ctld.loop.EffectSink;
import dev.sluice.ctld.loop.JobLog;
import dev.sluice.ctld.loop.JournalObserver;
import dev.sluice.ctld.loop.LoopTimings;
import dev.sluice.ctld.metrics.ControllerMetrics;
import dev.sluice.ctld.persistence.Recovery;
import dev.sluice.ctld.rpc.ClientApiHandler;
import dev.sluice.ctld.rpc.CommandGate;
import dev.sluice.ctld.rpc.ControllerStatistics;
import dev.sluice.ctld.rpc.FrameServer;
import dev.sluice.ctld.rpc.GrpcClientApi;
import dev.sluice.ctld.rpc.NodeReadings;
import dev.sluice.ctld.rpc.NodeRegistryService;
import dev.sluice.ctld.rpc.Reconfigurer;
import dev.sluice.ctld.rpc.RpcTimings;
import dev.sluice.ctld.rpc.UnixCommandServer;
import dev.sluice.ctld.sched.Scheduler;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.protocol.auth.DaemonAuth;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running controller: recovered state, the loop, the command socket and the gRPC server.
 * Ports of 0 in the configuration bind ephemeral ports; {@link #commandPort} and {@link
 * #grpcPort} tell which, and the files served to configless nodes carry them ({@link ServedPorts}).
 */
public final class CtldServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(CtldServer.class);
    private static final int HEARTBEAT_SECONDS = 5;
    /** The cluster credentials' audience for this daemon. */
    public static final String AUDIENCE = "slurmctld";
    /** How often the controller asks sluice-dbd whether associations or QOS changed. */
    static final Duration POLICY_INTERVAL = Duration.ofSeconds(2);

    private final ControllerLoop loop;
    private final NodeDispatcher dispatcher;
    private final FrameServer frames;
    private final UnixCommandServer local;
    private final Server grpc;
    private final int commandPort;
    private final AccountingPipeline accounting;
    private final ControllerMetrics metrics;
    private final int metricsPort;

    private CtldServer(
            ControllerLoop loop,
            NodeDispatcher dispatcher,
            FrameServer frames,
            UnixCommandServer local,
            Server grpc,
            int port,
            AccountingPipeline accounting,
            ControllerMetrics metrics,
            int metricsPort) {
        this.accounting = accounting;
        this.metrics = metrics;
        this.metricsPort = metricsPort;
        this.loop = loop;
        this.dispatcher = dispatcher;
        this.frames = frames;
        this.local = local;
        this.grpc = grpc;
        this.commandPort = port;
    }

    public static CtldServer start(
            CtldConfig config,
            InstantSource clock,
            String bindHost,
            boolean truncateCorruptJournal,
            Consumer<Throwable> fatal)
            throws IOException, InterruptedException {
        return start(config, clock, bindHost, truncateCorruptJournal, fatal, null);
    }

    /**
     * @param nodeEffects where launches, kills and signals go instead of real node daemons (a
     *     simulator or the select-query tool); null for the real gRPC dispatcher
     */
    public static CtldServer start(
            CtldConfig config,
            InstantSource clock,
            String bindHost,
            boolean truncateCorruptJournal,
            Consumer<Throwable> fatal,
            EffectSink nodeEffects)
            throws IOException, InterruptedException {
        return start(config, clock, bindHost, truncateCorruptJournal, fatal, nodeEffects, null, -1);
    }

    /**
     * @param reloader re-reads the files for {@code scontrol reconfigure}; null refuses it
     * @param metricsPort where {@code /metrics} is served (0: an ephemeral port); negative: not served
     */
    static CtldServer start(
            CtldConfig config,
            InstantSource clock,
            String bindHost,
            boolean truncateCorruptJournal,
            Consumer<Throwable> fatal,
            EffectSink nodeEffects,
            ConfigReloader reloader,
            int metricsPort)
            throws IOException, InterruptedException {
        if (config.access().clusterKeys() == null) {
            throw new IllegalStateException("no cluster key loaded: the controller authenticates every daemon with it");
        }
        // Node daemons and sluice-dbd obey credentials of root, SlurmUser or this account.
        DaemonAuth auth = DaemonAuth.forThisProcess(
                config.access().clusterKeys(),
                config.controller().controlHost(),
                List.of(config.topology().nodePolicy().slurmUser()),
                clock);
        ClusterState state = new ClusterState(
                config.nodes(),
                config.partitions(),
                config.topology().memberships(),
                config.jobs().firstJobId());
        Path stateDir = Path.of(config.controller().stateSaveLocation());
        Recovery.Result recovered = Recovery.recover(stateDir, state, truncateCorruptJournal);
        log.info(
                "recovered {} snapshot and {} journal records from {}; next job id {}",
                recovered.snapshotEntries(),
                recovered.journalEntries(),
                stateDir,
                state.nextJobId());

        Scheduler.SelectDefaults defaults = config.scheduler().select();
        // AccountingStorageEnforce: the last saved associations and QOS until dbd sends newer.
        // Accounting is on only with AccountingStorageType=accounting_storage/slurmdbd; the QOS
        // priorities it sends feed the QOS factor even when nothing is enforced.
        var acct = AccountingSettings.from(config);
        PolicyView limits = acct.isPresent()
                ? new PolicyView(
                        AccountingSettings.enforcement(config),
                        AccountingPolicy.EMPTY,
                        AccountingSettings.tracksWckeys(config))
                : PolicyView.OFF;
        JobControl jobs = JobControl.builder(defaults)
                .maxArraySize(config.jobs().maxArraySize())
                .limits(limits)
                .build();
        NodeControl nodes = new NodeControl(
                config.timers().slurmdTimeoutSeconds(), config.topology().nodePolicy());
        NodeDispatcher dispatcher = nodeEffects == null ? new NodeDispatcher(config, auth) : null;
        List<Command<?>> periodic = new ArrayList<>();
        Command<Void> silence = nodes::checkSilence;
        Command<Void> purge = (s, now) -> JobPurge.purge(s, now, config.timers().minJobAgeSeconds());
        periodic.add(silence);
        periodic.add(purge);
        Command<Void> expire = dev.sluice.ctld.control.AllocationControl::expire;
        periodic.add(expire);
        Command<Void> warn = dev.sluice.ctld.control.WarnSignals::send;
        periodic.add(warn);
        Command<Void> preemptKills = dev.sluice.ctld.control.PreemptKills::expire;
        periodic.add(preemptKills);
        Command<Void> steps = dev.sluice.ctld.control.StepCommands::sweep;
        periodic.add(steps);
        Command<Void> rollover = dev.sluice.ctld.control.ReservationRollover::advance;
        periodic.add(rollover);
        AccountingPipeline accounting = null;
        if (acct.isPresent()) {
            accounting = AccountingPipeline.open(
                    acct.get(),
                    stateDir,
                    state.sequence(),
                    clock,
                    auth,
                    defaults.memoryConsumable(),
                    defaults.licenses());
        }
        if (accounting != null) {
            PolicyPuller puller = new PolicyPuller(limits, stateDir, acct.get(), POLICY_INTERVAL, auth);
            puller.loadSaved();
            accounting.keepPolicy(puller);
        }
        // sdiag's counters start with the controller.
        ControllerStatistics statistics =
                new ControllerStatistics(clock.instant().getEpochSecond());
        ControllerLoop loop = new ControllerLoop(
                state,
                recovered.journal(),
                clock,
                new Scheduler(config.scheduler()),
                nodeEffects == null ? dispatcher : nodeEffects,
                periodic,
                fatal,
                JournalObserver.both(observers(accounting, nodeEffects == null), statistics));
        loop.enforce(limits);
        loop.reportTimings(statistics);
        if (dispatcher != null) {
            dispatcher.bind(loop);
        }
        ControllerMetrics metrics = null;
        if (metricsPort >= 0) {
            AccountingPipeline outbox = accounting;
            metrics = new ControllerMetrics(loop::image, () -> outbox == null ? -1 : outbox.depth(), clock);
            loop.reportTimings(LoopTimings.both(metrics.loopTimings(), statistics));
        }
        loop.start();
        if (accounting != null) {
            accounting.start();
        }

        long startTime = clock.instant().getEpochSecond();
        Reconfigurer reconfigurer =
                Reconfigurer.fixed(config.files().configFiles(), config.files().showConfig());
        if (reloader != null) {
            reloader.bind(loop, dispatcher, auth, jobs);
            reconfigurer = reloader;
        }
        // Filled as the sockets bind, before either port is told to anyone.
        java.util.concurrent.atomic.AtomicIntegerArray boundPorts =
                new java.util.concurrent.atomic.AtomicIntegerArray(2);
        if (!config.controller().portsAsFiles()
                || config.controller().slurmctldPort() == 0
                || config.controller().grpcPort() == 0) {
            reconfigurer = new ServedPorts(reconfigurer, () -> boundPorts.get(0), () -> boundPorts.get(1));
        }
        NodeReadings readings = new NodeReadings();
        ClientApiHandler handler =
                new ClientApiHandler(loop, jobs, nodes, config, startTime, reconfigurer).withReadings(readings);
        if (dispatcher != null) {
            // Steps run on real node daemons; a simulation (nodeEffects) has none to run them.
            handler = handler.withSteps(new dev.sluice.ctld.step.StepService(loop, dispatcher));
        }
        AccountingPipeline backlog = accounting;
        handler = handler.withStatistics(statistics, () -> backlog == null ? 0 : backlog.depth());
        UserDb users = UserDb.system();
        handler = handler.withOperators(operatorUids(config, users));
        RequestAuthenticator authenticator = new RequestAuthenticator(
                config.access().clusterKeys(), config.security().userTokens(), users, AUDIENCE);
        if (reloader != null) {
            reloader.bindCommands(authenticator);
        }
        // Credentials are about real time, whatever clock drives the scheduler (a simulation's).
        CommandGate gate = new CommandGate(
                handler,
                authenticator,
                InstantSource.system(),
                metrics == null ? RpcTimings.NONE : metrics.rpcTimings());
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
        if (metrics != null) {
            grpcBuilder.intercept(metrics.grpcInterceptor());
        }
        Server grpc = grpcBuilder
                .addService(ServerInterceptors.intercept(
                        new GrpcClientApi(handler),
                        GrpcClientApi.authenticatingInterceptor(authenticator, InstantSource.system())))
                .addService(auth.protect(
                        new NodeRegistryService(
                                        loop,
                                        nodes,
                                        config.clusterName(),
                                        heartbeatSeconds(config.timers().slurmdTimeoutSeconds()),
                                        NodeRegistryService::resolves)
                                .reportingTo(readings),
                        DaemonAuth.CTLD))
                .build()
                .start();
        boundPorts.set(1, grpc.getPort());
        log.info(
                "sluice-ctld for cluster {} ready: commands on {}:{}, daemons (gRPC) on {}:{}",
                config.clusterName(),
                bindHost,
                bound.getPort(),
                bindHost,
                grpc.getPort());
        int servedMetricsPort = -1;
        if (metrics != null) {
            try {
                servedMetricsPort = metrics.serve(bindHost, metricsPort);
            } catch (IOException e) {
                grpc.shutdownNow();
                frames.close();
                local.close();
                loop.close();
                if (dispatcher != null) {
                    dispatcher.close();
                }
                if (accounting != null) {
                    accounting.close();
                }
                throw new IOException("cannot serve metrics on " + bindHost + ":" + metricsPort + ": " + e, e);
            }
            log.info("metrics on http://{}:{}/metrics", bindHost, servedMetricsPort);
        }
        return new CtldServer(
                loop, dispatcher, frames, local, grpc, bound.getPort(), accounting, metrics, servedMetricsPort);
    }

    /**
     * Accounting when it is on; the job log for a controller of real nodes (a simulation's
     * thousands of jobs are not a cluster's history).
     */
    private static JournalObserver observers(AccountingPipeline accounting, boolean realNodes) {
        JournalObserver outbox = accounting == null ? JournalObserver.NONE : accounting;
        return realNodes ? JournalObserver.both(JobLog.toLog(), outbox) : outbox;
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

    public int commandPort() {
        return commandPort;
    }

    public int grpcPort() {
        return grpc.getPort();
    }

    /** The port {@code /metrics} is served on; -1 when metrics are off. */
    public int metricsPort() {
        return metricsPort;
    }

    public ControllerLoop loop() {
        return loop;
    }

    /** Accounting records not yet acknowledged by sluice-dbd; -1 when accounting is off. */
    public int accountingBacklog() {
        return accounting == null ? -1 : accounting.depth();
    }

    @Override
    public void close() {
        if (metrics != null) {
            metrics.close();
        }
        grpc.shutdownNow();
        frames.close();
        local.close();
        loop.close();
        if (dispatcher != null) {
            dispatcher.close();
        }
        if (accounting != null) {
            accounting.close();
        }
    }
}
