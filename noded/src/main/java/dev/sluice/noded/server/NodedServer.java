package dev.sluice.noded.server;

import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.common.slurm.SlurmVersion;
import dev.sluice.noded.confine.Confinement;
import dev.sluice.noded.confine.Confinements;
import dev.sluice.noded.launch.BatchLauncher;
import dev.sluice.noded.launch.CpuBinding;
import dev.sluice.noded.launch.JobConfinement;
import dev.sluice.noded.launch.StepLauncher;
import dev.sluice.noded.metrics.NodedMetrics;
import dev.sluice.noded.probe.MachineFacts;
import dev.sluice.noded.registration.Registrar;
import dev.sluice.noded.rpc.NodeControlService;
import dev.sluice.noded.spool.JobSpool;
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

    public static NodedServer start(NodedSettings s, ClusterKeys keys) throws IOException {
        return start(s, keys, () -> keys, () -> s);
    }

    /**
     * @param keys the cluster keys
     * @param reloadKeys reads the cluster keys again on {@code scontrol reconfigure} (rotation)
     * @param reload reads the configuration again (fetching it when configless) for
     *     {@code scontrol reconfigure}; the daemon then registers anew with what it says
     */
    public static NodedServer start(
            NodedSettings s, ClusterKeys keys, Supplier<ClusterKeys> reloadKeys, Supplier<NodedSettings> reload)
            throws IOException {
        return start(s, keys, reloadKeys, reload, -1);
    }

    /** @param metricsPort where {@code /metrics} is served (0: ephemeral); negative: not served */
    public static NodedServer start(
            NodedSettings s,
            ClusterKeys keys,
            Supplier<ClusterKeys> reloadKeys,
            Supplier<NodedSettings> reload,
            int metricsPort)
            throws IOException {
        DaemonAuth auth = DaemonAuth.forThisProcess(
                keys, s.nodeName(), List.of(s.controller().slurmUser()), Clock.systemUTC());
        JobCredentials.Checker credentials = new JobCredentials.Checker(auth::credentials, s.nodeName(), auth.clock());
        JobSpool spool = new JobSpool(Path.of(s.jobs().spoolDir()));
        int uid = (int) new com.sun.security.auth.module.UnixSystem().getUid();
        Registrar[] registrar = new Registrar[1];
        BatchLauncher launcher =
                new BatchLauncher(s.nodeName(), spool, uid, report -> registrar[0].reportSoon(report), auth.clock());
        launcher.jobScripts(s.jobs().prolog(), s.jobs().epilog());
        StepLauncher steps = new StepLauncher(s.nodeName(), uid, spool, auth.clock());
        applyCpuBinding(s, launcher, steps);
        // A job's steps end with it: its time limit, cancel or end reaches their tasks too.
        launcher.onJobSignal(steps::signalJob);
        // SlurmdStartTime is this daemon's start; BootTime, Arch and OS are the machine's.
        long startTime = ManagementFactory.getRuntimeMXBean().getStartTime() / 1000;
        MachineFacts machine = MachineFacts.detect(auth.clock().instant().getEpochSecond());
        log.info("sluice-noded {} (Slurm {}) on {} {}", VERSION, SlurmVersion.RELEASE, machine.arch(), machine.os());
        AtomicReference<RegisterNodeRequest> registration = new AtomicReference<>();
        int[] boundPort = new int[1];
        Runnable reconfigure = () -> {
            auth.reload(reloadKeys.get());
            NodedSettings fresh = reload.get();
            launcher.jobScripts(fresh.jobs().prolog(), fresh.jobs().epilog());
            applyCpuBinding(fresh, launcher, steps);
            registration.set(registration(fresh, boundPort[0], machine, startTime));
            log.info("reconfigured: registering again");
            registrar[0].registerAgain();
        };
        Server server = NettyServerBuilder.forAddress(
                        new InetSocketAddress(s.node().bindHost(), s.node().port()))
                .executor(Executors.newVirtualThreadPerTaskExecutor())
                .addService(auth.protect(
                        new NodeControlService(launcher, reconfigure, steps, credentials), DaemonAuth.NODED))
                .build()
                .start();
        boundPort[0] = server.getPort();
        registration.set(registration(s, boundPort[0], machine, startTime));
        ManagedChannel channel = NettyChannelBuilder.forAddress(
                        s.controller().host(), s.controller().grpcPort())
                .usePlaintext()
                .build();
        registrar[0] =
                new Registrar(channel, auth.client(DaemonAuth.CTLD), s.nodeName(), registration::get, launcher, spool);
        // Jobs that outlived a previous daemon are adopted before the first registration, so
        // the controller hears of them as running here and does not launch them again.
        Confinement confinement = Confinements.openHere(
                s.jobs().confinement(),
                Confinements.parentName(s.nodeName(), s.jobs().spoolDir()),
                s.resources().hardware().getCpus());
        Confinements.startLines(s.jobs().confinement(), confinement).forEach(log::info);
        JobConfinement jobConfinement = new JobConfinement(
                confinement,
                s.jobs().confinement(),
                s.resources().gresDevices(),
                s.resources().hardware().getRealMemoryMb(),
                s.resources().hardware().getThreadsPerCore());
        launcher.confineWith(jobConfinement);
        steps.confineWith(jobConfinement);
        launcher.recover();
        registrar[0].start();
        log.info(
                "sluice-noded {} listening on {}:{}, controller {}:{}; detected {} CPUs, {} MB; GRES found {}",
                s.nodeName(),
                s.node().bindHost(),
                boundPort[0],
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
                registrar[0].close();
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
        return new NodedServer(server, launcher, registrar[0], metrics, servedMetricsPort, drain, confinement);
    }

    private static void applyCpuBinding(NodedSettings s, BatchLauncher launcher, StepLauncher steps) {
        CpuBinding.Policy policy = CpuBinding.Policy.of(
                s.jobs().taskPlugin(), s.resources().hardware().getThreadsPerCore());
        launcher.cpuBinding(policy);
        steps.cpuBinding(policy);
        log.info(
                "TaskPlugin={}: {}",
                s.jobs().taskPlugin().isEmpty()
                        ? "task/none"
                        : String.join(",", s.jobs().taskPlugin()),
                policy.binds() ? "jobs are bound to their allocated CPUs" : "jobs are not bound to CPUs");
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
