package dev.sluice.bench.ctld;

import dev.sluice.bench.daemon.ChildDaemon;
import dev.sluice.bench.daemon.DaemonCommands;
import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.ctld.accounting.AccountingPipeline;
import dev.sluice.ctld.accounting.PolicyPuller;
import dev.sluice.packaging.LocalCluster;
import dev.sluice.packaging.LocalClusterFiles;
import dev.sluice.packaging.LocalClusterLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The controller-bound cluster: a real sluice-ctld (and sluice-dbd, unless accounting is off) as
 * child processes and {@link SimulatedNodes} in this process, registered and ready for jobs.
 * Shared by {@code scripts/bench-ctld} and {@code scripts/bench-rest}, so both measure the same
 * controller in the same shape. Closing it stops the daemons and removes a temporary state
 * directory.
 */
public final class BenchCluster implements AutoCloseable {
    private final BenchOptions options;
    private final Path stateDir;
    private final SimulatedNodes nodes;
    private final List<ChildDaemon> daemons;
    private final LocalClusterLayout layout;
    private final ChildDaemon ctld;
    private final ChildDaemon dbd;

    private BenchCluster(
            BenchOptions options,
            Path stateDir,
            SimulatedNodes nodes,
            List<ChildDaemon> daemons,
            LocalClusterLayout layout,
            ChildDaemon ctld,
            ChildDaemon dbd) {
        this.options = options;
        this.stateDir = stateDir;
        this.nodes = nodes;
        this.daemons = daemons;
        this.layout = layout;
        this.ctld = ctld;
        this.dbd = dbd;
    }

    /** Starts the daemons and the simulated nodes in the shape {@code o} gives. */
    public static BenchCluster start(BenchOptions o) throws Exception {
        Path stateDir = o.daemons().stateDir() != null
                ? o.daemons().stateDir().toAbsolutePath()
                : Files.createTempDirectory("bench-ctld-");
        List<String> names = new ArrayList<>();
        for (int n = 1; n <= o.shape().nodes(); n++) {
            names.add(LocalClusterLayout.nodeName(n));
        }
        List<ChildDaemon> daemons = new ArrayList<>();
        SimulatedNodes nodes =
                new SimulatedNodes(names, o.shape().cpus(), 1000L * o.shape().cpus());
        try {
            // The daemons start on port 0 and report theirs; the simulated nodes' are known.
            int unbound = LocalClusterLayout.UNBOUND;
            LocalClusterLayout layout = new LocalClusterLayout(
                    stateDir,
                    o.shape().nodes(),
                    o.shape().cpus(),
                    1,
                    1000L * o.shape().cpus(),
                    0,
                    unbound,
                    unbound,
                    nodes.ports(),
                    o.accounting() ? unbound : 0,
                    0);
            LocalClusterFiles.write(layout, Path.of("bin").toAbsolutePath());
            Files.writeString(
                    layout.slurmConfPath(),
                    LocalClusterFiles.overridden(
                            Files.readString(layout.slurmConfPath()),
                            List.of(
                                    "MaxJobCount=" + Math.max(10_000, 4 * (o.jobs() + o.warmup())),
                                    "MaxArraySize=" + (Math.max(o.jobs(), o.warmup()) + 1),
                                    "MinJobAge=" + o.minJobAge())));
            ChildDaemon dbd = null;
            if (o.accounting()) {
                dbd = ChildDaemon.start(
                        "sluice-dbd",
                        layout.logDir().resolve("dbd.log"),
                        DaemonCommands.dbd(
                                o.daemons().dbdJavaOptions(),
                                layout.etc().resolve("slurmdbd.conf"),
                                layout.portsFile("dbd"),
                                layout.etc().resolve(ClusterKeys.KEY_FILE),
                                o.daemons().jdbcUrl() != null
                                        ? List.of("--jdbc-url", o.daemons().jdbcUrl())
                                        : List.of(
                                                "--data-dir",
                                                layout.stateDir().resolve("dbd").toString())));
                daemons.add(dbd);
                int dbdPort = dbd.awaitPorts(layout.portsFile("dbd")).get("port");
                layout = layout.withPorts(unbound, unbound, dbdPort);
                LocalClusterFiles.stampPorts(layout);
            }
            ChildDaemon ctld = ChildDaemon.start(
                    "sluice-ctld",
                    layout.logDir().resolve("ctld.log"),
                    DaemonCommands.ctld(
                            o.daemons().ctldJavaOptions(), layout.slurmConfPath(), layout.portsFile("ctld")));
            daemons.add(ctld);
            Map<String, Integer> ctldPorts = ctld.awaitPorts(layout.portsFile("ctld"));
            layout = layout.withPorts(ctldPorts.get("port"), ctldPorts.get("grpc"), layout.dbdPort());
            LocalClusterFiles.stampPorts(layout);
            nodes.register(ClusterKeys.loadFromConfigDir(layout.etc()), layout.grpcPort());
            if (o.accounting()) {
                Path policy = LocalCluster.stateSaveLocation(layout)
                        .resolve(AccountingPipeline.DIRECTORY)
                        .resolve(PolicyPuller.FILE);
                ctld.await(
                        () -> Files.exists(policy) ? Optional.of(policy) : Optional.empty(),
                        "the controller got no associations from sluice-dbd; see " + ctld.log());
            }
            return new BenchCluster(o, stateDir, nodes, daemons, layout, ctld, dbd);
        } catch (Exception | Error e) {
            stop(daemons, nodes, o, stateDir);
            throw e;
        }
    }

    public SimulatedNodes nodes() {
        return nodes;
    }

    public ChildDaemon ctld() {
        return ctld;
    }

    /** sluice-dbd, or null without accounting. */
    public ChildDaemon dbd() {
        return dbd;
    }

    public LocalClusterLayout layout() {
        return layout;
    }

    /** The controller's command socket (what the commands on its host use). */
    public Path socket() throws java.io.IOException {
        return LocalCluster.stateSaveLocation(layout).resolve("slurmctld.socket");
    }

    @Override
    public void close() throws Exception {
        stop(daemons, nodes, options, stateDir);
    }

    private static void stop(List<ChildDaemon> daemons, SimulatedNodes nodes, BenchOptions o, Path stateDir)
            throws Exception {
        // The nodes first, as bench-ctld always did: their heartbeats must not outlive the controller.
        nodes.close();
        try {
            for (ChildDaemon d : daemons.reversed()) {
                d.stop();
            }
        } finally {
            if (o.daemons().stateDir() == null && !o.daemons().keep()) {
                ChildDaemon.deleteTree(stateDir);
            }
        }
    }
}
