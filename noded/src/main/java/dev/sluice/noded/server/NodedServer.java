package dev.sluice.noded.server;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.common.slurm.SlurmVersion;
import dev.sluice.noded.confine.Confinement;
import dev.sluice.noded.confine.Confinements;
import dev.sluice.noded.launch.AllocationPrologs;
import dev.sluice.noded.launch.BatchLauncher;
import dev.sluice.noded.launch.CpuBinding;
import dev.sluice.noded.launch.JobConfinement;
import dev.sluice.noded.launch.LaunchPolicy;
import dev.sluice.noded.launch.LaunchSetup;
import dev.sluice.noded.launch.StepLauncher;
import dev.sluice.noded.metrics.NodedMetrics;
import dev.sluice.noded.probe.MachineFacts;
import dev.sluice.noded.registration.Registrar;
import dev.sluice.noded.rpc.NodeControlService;
import dev.sluice.noded.spool.JobSpool;
import dev.sluice.noded.spool.Outbox;
import dev.sluice.protocol.auth.DaemonAuth;
import dev.sluice.protocol.auth.JobCredentials;
import dev.sluice.protocol.v1.RegisterNodeRequest;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A running node daemon: the NodeControl server, the launcher and the registrar. */
public final class NodedServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(NodedServer.class);
    public static final String VERSION = "22.05.8-sluice-0.1";
    private static final long DRAIN_POLL_MILLIS = 2000;

    private final Server server;
    private final BatchLauncher launcher;
    private final Registrar registrar;
    private final NodedMetrics metrics;
    private final int metricsPort;
    private final DrainAndExit drain;
    private final Confinement confinement;

    private NodedServer(
            Server server,
            BatchLauncher launcher,
            Registrar registrar,
            NodedMetrics metrics,
            int metricsPort,
            DrainAndExit drain,
            Confinement confinement) {
        this.confinement = confinement;
        this.server = server;
        this.launcher = launcher;
        this.registrar = registrar;
        this.metrics = metrics;
        this.metricsPort = metricsPort;
        this.drain = drain;
    }

    /** A daemon of these settings and keys; what reconfigure reads again and metrics are optional. */
    public static Builder builder(NodedSettings settings, ClusterKeys keys) {
        return new Builder(settings, keys);
    }

    /** Everything the daemon starts with, given before it starts: nothing is wired afterwards. */
    public static final class Builder {
        private final NodedSettings settings;
        private final ClusterKeys keys;
        private Supplier<ClusterKeys> reloadKeys;
        private Supplier<NodedSettings> reload;
        private int metricsPort = -1;

        private Builder(NodedSettings settings, ClusterKeys keys) {
            this.settings = requireNonNull(settings, "settings is null");
            this.keys = requireNonNull(keys, "keys is null");
            this.reloadKeys = () -> keys;
            this.reload = () -> settings;
        }

        /** Reads the cluster keys again on {@code scontrol reconfigure} (rotation); default: the same keys. */
        public Builder reloadKeys(Supplier<ClusterKeys> reloadKeys) {
            this.reloadKeys = requireNonNull(reloadKeys, "reloadKeys is null");
            return this;
        }

        /**
         * Reads the configuration again (fetching it when configless) for {@code scontrol
         * reconfigure}; the daemon then registers anew with what it says. Default: the same settings.
         */
        public Builder reload(Supplier<NodedSettings> reload) {
            this.reload = requireNonNull(reload, "reload is null");
            return this;
        }

        /** Where {@code /metrics} is served (0: ephemeral); negative, the default: not served. */
        public Builder metricsPort(int metricsPort) {
            this.metricsPort = metricsPort;
            return this;
        }

        public NodedServer start() throws IOException {
            return NodedServer.start(this);
        }
    }

    private static NodedServer start(Builder b) throws IOException {
        NodedSettings s = b.settings;
        ClusterKeys keys = b.keys;
        Supplier<ClusterKeys> reloadKeys = b.reloadKeys;
        Supplier<NodedSettings> reload = b.reload;
        int metricsPort = b.metricsPort;
        DaemonAuth auth = DaemonAuth.forThisProcess(
                keys, s.nodeName(), List.of(s.controller().slurmUser()), Clock.systemUTC());
        JobCredentials.Checker credentials = new JobCredentials.Checker(auth::credentials, s.nodeName(), auth.clock());
        JobSpool spool = new JobSpool(Path.of(s.jobs().spoolDir()));
        // The launcher posts job ends here and the registrar drains it: neither holds the other.
        Outbox outbox = new Outbox(spool);
        // Opened before any job can launch, so that every job, the first included, is confined.
        Confinement confinement = Confinements.openHere(
                s.jobs().confinement(),
                Confinements.parentName(s.nodeName(), s.jobs().spoolDir()),
                s.resources().hardware().getCpus());
        Confinements.startLines(s.jobs().confinement(), confinement).forEach(log::info);
        // What reconfigure changes: the launchers read it at each launch.
        AtomicReference<LaunchPolicy> policy = new AtomicReference<>(launchPolicy(s));
        LaunchSetup setup = LaunchSetup.builder()
                .nodeName(s.nodeName())
                .spool(spool)
                .daemonUid((int) new com.sun.security.auth.module.UnixSystem().getUid())
                .clock(auth.clock())
                .policy(policy::get)
                .confinement(new JobConfinement(
                        confinement,
                        s.jobs().confinement(),
                        s.resources().gresDevices(),
                        s.resources().hardware().getRealMemoryMb(),
                        s.resources().hardware().getThreadsPerCore()))
                .build();
        StepLauncher steps = new StepLauncher(setup);
        // A job's steps end with it: its time limit, cancel or end reaches their tasks too.
        BatchLauncher launcher = new BatchLauncher(setup, outbox, steps::signalJob);
        // SlurmdStartTime is this daemon's start; BootTime, Arch and OS are the machine's.
        long startTime = ManagementFactory.getRuntimeMXBean().getStartTime() / 1000;
        MachineFacts machine = MachineFacts.detect(auth.clock().instant().getEpochSecond());
        log.info("sluice-noded {} (Slurm {}) on {} {}", VERSION, SlurmVersion.RELEASE, machine.arch(), machine.os());
        // The configured port until the server is bound (0 asks for any free one), then the bound one.
        AtomicReference<RegisterNodeRequest> registration =
                new AtomicReference<>(registration(s, s.node().port(), machine, startTime));
        ManagedChannel channel = NettyChannelBuilder.forAddress(
                        s.controller().host(), s.controller().grpcPort())
                .usePlaintext()
                .build();
        // Built before the server that serves reconfigure, started once jobs are recovered.
        Registrar registrar =
                new Registrar(channel, auth.client(DaemonAuth.CTLD), s.nodeName(), registration::get, launcher, outbox);
        Runnable reconfigure = () -> {
            auth.reload(reloadKeys.get());
            NodedSettings fresh = reload.get();
            policy.set(launchPolicy(fresh));
            registration.updateAndGet(before -> registration(fresh, before.getPort(), machine, startTime));
            log.info("reconfigured: registering again");
            registrar.registerAgain();
        };
        AllocationPrologs allocationPrologs =
                new AllocationPrologs(s.nodeName(), policy::get, outbox, spool.prologRuns());
        Server server;
        try {
            server = NettyServerBuilder.forAddress(
                            new InetSocketAddress(s.node().bindHost(), s.node().port()))
                    .executor(Executors.newVirtualThreadPerTaskExecutor())
                    .addService(auth.protect(
                            new NodeControlService(launcher, allocationPrologs, reconfigure, steps, credentials),
                            DaemonAuth.NODED))
                    .build()
                    .start();
        } catch (IOException | RuntimeException e) {
            registrar.close();
            launcher.close();
            confinement.removeParentIfEmpty();
            throw e;
        }
        registration.updateAndGet(r -> r.toBuilder().setPort(server.getPort()).build());
        // Jobs that outlived a previous daemon are adopted before the first registration, so
        // the controller hears of them as running here and does not launch them again.
        launcher.recover();
        // Allocation Prologs likewise: told, or watched if still running, never run again.
        allocationPrologs.recover();
        registrar.start();
        log.info(
                "sluice-noded {} listening on {}:{}, controller {}:{}; detected {} CPUs, {} MB; GRES found {}",
                s.nodeName(),
                s.node().bindHost(),
                server.getPort(),
                s.controller().host(),
                s.controller().grpcPort(),
                s.resources().detected().getCpus(),
                s.resources().detected().getRealMemoryMb(),
                NodeSetup.summary(s.resources().gresFound()));
        NodedMetrics metrics = null;
        int servedMetricsPort = -1;
        if (metricsPort >= 0) {
            metrics = new NodedMetrics(s.nodeName(), launcher::runningJobGpus, steps::runningSteps);
            try {
                servedMetricsPort = metrics.serve(s.node().bindHost(), metricsPort);
            } catch (IOException e) {
                registrar.close();
                server.shutdownNow();
                launcher.close();
                throw new IOException(
                        "cannot serve metrics on " + s.node().bindHost() + ":" + metricsPort + ": " + e, e);
            }
            log.info("metrics on http://{}:{}/metrics", s.node().bindHost(), servedMetricsPort);
        }
        DrainAndExit drain = new DrainAndExit(
                s.nodeName(),
                () -> auth.credentials()
                        .issue(
                                DaemonAuth.thisProcess(s.nodeName()),
                                DaemonAuth.CTLD,
                                null,
                                auth.clock().instant(),
                                DaemonAuth.TTL),
                channel,
                () -> launcher.runningJobIds().isEmpty() && steps.runningSteps() == 0,
                DRAIN_POLL_MILLIS);
        return new NodedServer(server, launcher, registrar, metrics, servedMetricsPort, drain, confinement);
    }

    /** slurm.conf's Prolog, Epilog and TaskPlugin, as the launchers apply them; logged at start and reconfigure. */
    private static LaunchPolicy launchPolicy(NodedSettings s) {
        CpuBinding.Policy binding = CpuBinding.Policy.of(
                s.jobs().taskPlugin(), s.resources().hardware().getThreadsPerCore());
        log.info(
                "TaskPlugin={}: {}",
                s.jobs().taskPlugin().isEmpty()
                        ? "task/none"
                        : String.join(",", s.jobs().taskPlugin()),
                binding.binds() ? "jobs are bound to their allocated CPUs" : "jobs are not bound to CPUs");
        // The controller decides the same from the same lines (ctld CtldConfigs).
        boolean atAllocation =
                s.jobs().prologFlags().alloc() && !s.jobs().prolog().isEmpty();
        return new LaunchPolicy(s.jobs().prolog(), s.jobs().epilog(), binding, atAllocation);
    }

    private static RegisterNodeRequest registration(NodedSettings s, int port, MachineFacts machine, long startTime) {
        return RegisterNodeRequest.newBuilder()
                .setName(s.nodeName())
                .setHostname(s.node().hostname())
                .setAddr(s.node().addr())
                .setPort(port)
                .setHardware(s.resources().hardware())
                .setDynamic(s.node().dynamic())
                // The Slurm release this daemon speaks for, as slurmd reports its own (Version=);
                // Sluice's own build (VERSION) goes to the log at start.
                .setVersion(SlurmVersion.RELEASE)
                .setBootTime(machine.bootTime())
                .setSlurmdStartTime(startTime)
                .setArch(machine.arch())
                .setOs(machine.os())
                .setDetected(s.resources().detected())
                .addAllGresFound(s.resources().gresFound())
                .build();
    }

    public int port() {
        return server.getPort();
    }

    /**
     * Drains this node at the controller and completes once no job or step runs here; the
     * caller then exits (SIGUSR1, see {@link NodedMain}).
     */
    public java.util.concurrent.CompletableFuture<Void> drainAndExit(String reason) {
        return drain.start(reason);
    }

    /** The port {@code /metrics} is served on; -1 when metrics are off. */
    public int metricsPort() {
        return metricsPort;
    }

    public boolean isRegistered() {
        return registrar.isRegistered();
    }

    @Override
    public void close() {
        if (metrics != null) {
            metrics.close();
        }
        registrar.close();
        server.shutdownNow();
        launcher.close();
        // Jobs still running keep their cgroups (a restarted daemon adopts them), and so the parent.
        confinement.removeParentIfEmpty();
    }
}
