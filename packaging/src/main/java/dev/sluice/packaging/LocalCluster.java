package dev.sluice.packaging;

import dev.sluice.cli.view.NodeStates;
import dev.sluice.common.auth.AuthException;
import dev.sluice.common.auth.ClusterCredentials;
import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.common.auth.Principal;
import dev.sluice.common.conf.ConfigException;
import dev.sluice.common.conf.SlurmConfReader;
import dev.sluice.common.slurm.NodeFlag;
import dev.sluice.common.slurm.NodeState;
import dev.sluice.ctld.accounting.AccountingPipeline;
import dev.sluice.ctld.accounting.PolicyPuller;
import dev.sluice.protocol.Frames;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.GetNodesRequest;
import dev.sluice.protocol.v1.NodeInfo;
import dev.sluice.protocol.v1.SignedRequest;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code ./sluice up}: a controller and node daemons on 127.0.0.1, with fake GPUs, in the
 * foreground. Every daemon and metrics endpoint listens on 127.0.0.1 only (the configuration
 * says so: {@link LocalClusterLayout#slurmConf}). Writes its configuration and {@code sluice.env} under the state directory,
 * prints one line when every node has registered, and stops everything on SIGINT/SIGTERM.
 * Starting again on the same state directory recovers the controller's journal. The files it
 * writes are {@link LocalClusterFiles}'s; this class parses the options and runs the daemons.
 *
 * <p>No port is picked before its daemon holds it: sluice-dbd, the controller, the node daemons
 * and the REST daemon start on port 0 and write the ports they bound to {@code run/NAME.ports};
 * each is started once the ports it must know are written into slurm.conf and sluice.conf
 * (dbd, then the controller, then the rest), and {@code sluice.env} gets the metrics and REST
 * URLs once reported. Two clusters started at once, or any other process, cannot take a port
 * from under one another.
 */
public final class LocalCluster {
    private LocalCluster() {}

    public static void main(String[] args) throws Exception {
        int status;
        try {
            status = run(args);
        } catch (ReportedPorts.NotReported e) {
            // A daemon that never bound its ports (its log says why): the rest are stopped on exit.
            System.err.println("sluice: " + e.getMessage());
            status = 1;
        }
        System.exit(status);
    }

    static int run(String[] args) throws Exception {
        Path stateDir = Path.of(".sluice");
        int nodes = 2;
        int cpus = 4;
        int gpus = 3;
        int threads = 1;
        long memory = 0;
        int mps = 0;
        List<String> overrides = new ArrayList<>();
        Path siteConf = null;
        Path siteGres = null;
        Path binDir = Path.of(System.getProperty("sluice.bin", "bin"));
        int i = 0;
        if (args.length > 0 && args[0].equals("up")) {
            i = 1;
        }
        for (; i < args.length; i++) {
            String a = args[i];
            String v = a.contains("=") ? a.substring(a.indexOf('=') + 1) : (i + 1 < args.length ? args[i + 1] : null);
            String key = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
            boolean inline = a.contains("=");
            switch (key) {
                case "--state-dir" -> stateDir = Path.of(v);
                case "--nodes" -> nodes = Integer.parseInt(v);
                case "--cpus" -> cpus = Integer.parseInt(v);
                case "--gpus" -> gpus = Integer.parseInt(v);
                case "--threads-per-core" -> threads = Integer.parseInt(v);
                case "--memory" -> memory = Long.parseLong(v);
                case "--mps-per-gpu" -> mps = Integer.parseInt(v);
                case "--slurm-conf" -> siteConf = Path.of(v).toAbsolutePath();
                case "--gres-conf" -> siteGres = Path.of(v).toAbsolutePath();
                case "--conf" -> {
                    if (v == null || !v.contains("=")) {
                        System.err.println("sluice: --conf wants a slurm.conf line Key=Value");
                        return 2;
                    }
                    overrides.add(v);
                }
                case "-h", "--help" -> {
                    System.out.println("usage: sluice up [--nodes N] [--cpus N] [--gpus N] [--threads-per-core N]"
                            + " [--memory MB] [--mps-per-gpu N] [--conf Key=Value]... [--state-dir DIR]");
                    System.out.println("       sluice up --slurm-conf FILE [--gres-conf FILE] [--conf Key=Value]..."
                            + " [--state-dir DIR]   (a site's own files: one node daemon per NodeName)");
                    return 0;
                }
                default -> {
                    System.err.println("sluice: unknown option " + a + " (try --help)");
                    return 2;
                }
            }
            if (!inline) {
                i++;
            }
        }
        if (nodes < 1 || cpus < 1 || gpus < 0 || mps < 0 || threads < 1 || cpus % threads != 0) {
            System.err.println("sluice: --nodes and --cpus must be positive, --cpus a multiple of --threads-per-core");
            return 2;
        }
        stateDir = stateDir.toAbsolutePath().normalize();
        List<String> nodeNames = new ArrayList<>();
        boolean accounting = true;
        LocalClusterLayout layout;
        int unbound = LocalClusterLayout.UNBOUND;
        // Every daemon starts on port 0 and reports the port it bound; the files name a port only
        // once its daemon holds it (LocalClusterFiles.stampPorts), so no guess can be taken first.
        if (siteConf != null) {
            if (!Files.isReadable(siteConf)) {
                System.err.println("sluice: cannot read " + siteConf);
                return 2;
            }
            Path gres = siteGres != null ? siteGres : siteConf.resolveSibling("gres.conf");
            SiteConf.Rewritten site = SiteConf.rewrite(Files.readString(siteConf));
            nodeNames.addAll(site.nodes());
            accounting = site.accounting();
            layout = new LocalClusterLayout(
                    stateDir,
                    nodeNames.size(),
                    1,
                    1,
                    1,
                    0,
                    unbound,
                    unbound,
                    java.util.Collections.nCopies(nodeNames.size(), unbound),
                    accounting ? unbound : 0,
                    0);
            LocalClusterFiles.writeSite(
                    layout,
                    site.slurmConf(),
                    Files.isReadable(gres) ? Files.readString(gres) : null,
                    siteConf.resolveSibling("cgroup.conf"),
                    binDir.toAbsolutePath().normalize());
            nodes = nodeNames.size();
        } else {
            for (int n = 0; n < nodes; n++) {
                nodeNames.add(LocalClusterLayout.nodeName(n + 1));
            }
            layout = new LocalClusterLayout(
                    stateDir,
                    nodes,
                    cpus,
                    threads,
                    memory > 0 ? memory : 1000L * cpus,
                    gpus,
                    unbound,
                    unbound,
                    java.util.Collections.nCopies(nodes, unbound),
                    unbound,
                    mps);
            LocalClusterFiles.write(layout, binDir.toAbsolutePath().normalize());
        }
        if (!overrides.isEmpty()) {
            Files.writeString(
                    layout.slurmConfPath(),
                    LocalClusterFiles.overridden(Files.readString(layout.slurmConfPath()), overrides));
        }
        // The REST daemon runs where the configuration has JWT tokens for it to check.
        boolean rest = servesRest(layout);
        List<String> reporting = new ArrayList<>(List.of("dbd", "ctld", "restd"));
        reporting.addAll(nodeNames);
        for (String daemon : reporting) {
            ReportedPorts.forget(layout.portsFile(daemon));
        }

        LocalDaemons commands = new LocalDaemons(layout);
        List<Supervised> daemons = new java.util.concurrent.CopyOnWriteArrayList<>();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            daemons.forEach(Supervised::stop);
            daemons.forEach(Supervised::awaitStopped);
            System.out.println("sluice: stopped");
        }));
        long deadline = System.nanoTime() + 120_000_000_000L;
        // sluice-dbd first: the controller finds it at AccountingStoragePort (+ 100 for gRPC).
        int dbdPort = 0;
        if (accounting) {
            Supervised dbd = start(daemons, "sluice-dbd", commands.dbd(0), layout, "dbd");
            dbdPort = ReportedPorts.await(
                            layout.portsFile("dbd"), deadline, layout.logDir().resolve("dbd.log"))
                    .get("port");
            dbd.restartWith(commands.dbd(dbdPort));
            LocalClusterFiles.stampPorts(layout.withPorts(unbound, unbound, dbdPort));
        }
        // Then the controller, whose ports every other daemon and command reads from the files.
        Supervised ctld = start(daemons, "sluice-ctld", commands.ctld(0, 0), layout, "ctld");
        var ctldPorts = ReportedPorts.await(
                layout.portsFile("ctld"), deadline, layout.logDir().resolve("ctld.log"));
        layout = layout.withPorts(ctldPorts.get("port"), ctldPorts.get("grpc"), dbdPort);
        LocalClusterFiles.stampPorts(layout);
        int metricsPort = ctldPorts.get("metrics");
        ctld.restartWith(commands.ctld(-1, metricsPort));
        List<Supervised> nodeDaemons = new ArrayList<>();
        for (String name : nodeNames) {
            nodeDaemons.add(start(daemons, "sluice-noded " + name, commands.noded(name, 0, 0), layout, name));
        }
        daemons.add(new Supervised(
                "sluice-agent",
                commands.agent(),
                layout.logDir().resolve("agent.log"),
                layout.runDir().resolve("agent.pid")));
        daemons.getLast().start();
        Supervised restd = rest ? start(daemons, "sluice-restd", commands.restd(0), layout, "restd") : null;
        List<Integer> nodeMetricsPorts = new ArrayList<>();
        java.util.Map<String, Integer> nodePorts = new java.util.LinkedHashMap<>();
        for (int n = 0; n < nodes; n++) {
            String name = nodeNames.get(n);
            var bound = ReportedPorts.await(
                    layout.portsFile(name), deadline, layout.logDir().resolve(name + ".log"));
            nodeDaemons.get(n).restartWith(commands.noded(name, bound.get("port"), bound.get("metrics")));
            nodeMetricsPorts.add(bound.get("metrics"));
            nodePorts.put(name, bound.get("port"));
        }
        LocalClusterFiles.stampNodePorts(layout, nodePorts);
        String metricsUrl = "http://127.0.0.1:" + metricsPort + "/metrics";
        String restUrl = null;
        if (restd != null) {
            int restPort = ReportedPorts.await(
                            layout.portsFile("restd"), deadline, layout.logDir().resolve("restd.log"))
                    .get("port");
            restd.restartWith(commands.restd(restPort));
            restUrl = "http://127.0.0.1:" + restPort;
        }
        Files.writeString(
                stateDir.resolve("sluice.env"),
                "export SLUICE_METRICS_URL='" + metricsUrl + "'\n"
                        + (restUrl != null ? "export SLURMRESTD_URL='" + restUrl + "'\n" : ""),
                java.nio.file.StandardOpenOption.APPEND);
        while (!allRegistered(layout, nodes)) {
            if (System.nanoTime() > deadline) {
                System.err.println("sluice: the cluster did not come up within 120 s; see " + layout.logDir());
                return 1;
            }
            Thread.sleep(200);
        }
        reconfigure(layout);
        // With accounting, jobs submitted before the controller's first copy of the associations
        // would run without their user's default account: up means that copy is there.
        while (accounting && !holdsPolicy(layout)) {
            if (System.nanoTime() > deadline) {
                System.err.println("sluice: the controller got no associations from sluice-dbd within 120 s; see "
                        + layout.logDir());
                return 1;
            }
            Thread.sleep(200);
        }
        System.out.println("Sluice is up: "
                + (siteConf != null
                        ? nodes + " nodes of " + siteConf
                        : nodes + " nodes x " + cpus + " CPUs" + (gpus > 0 ? ", " + gpus + " fake GPUs each" : ""))
                + "; in another shell: source "
                + stateDir.resolve("sluice.env"));
        System.out.println(
                "Metrics: controller " + metricsUrl + ", node daemons on 127.0.0.1 ports " + nodeMetricsPorts);
        if (restUrl != null) {
            System.out.println("REST API: " + restUrl + "/slurm/v0.0.44/ (tokens: scontrol token)");
        }
        Thread.currentThread().join();
        return 0;
    }

    /** A supervised daemon, started, its log and pid named after {@code file}. */
    private static Supervised start(
            List<Supervised> daemons, String name, List<String> command, LocalClusterLayout layout, String file)
            throws IOException {
        Supervised d = new Supervised(
                name,
                command,
                layout.logDir().resolve(file + ".log"),
                layout.runDir().resolve(file + ".pid"));
        daemons.add(d);
        d.start();
        return d;
    }

    /** Whether the configuration the cluster runs on takes {@code auth/jwt} tokens. */
    private static boolean servesRest(LocalClusterLayout layout) throws IOException {
        try {
            return SlurmConfReader.read(layout.slurmConfPath()).authAltTypes().stream()
                    .anyMatch(t -> t.equalsIgnoreCase("auth/jwt"));
        } catch (ConfigException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /**
     * Whether the controller holds its first copy of the associations from sluice-dbd: the dbd
     * registered the cluster (with its root account and user) when it answered, so from here on
     * sacctmgr lists them and root's jobs run under them.
     */
    static boolean holdsPolicy(LocalClusterLayout layout) throws IOException {
        return Files.exists(
                stateSaveLocation(layout).resolve(AccountingPipeline.DIRECTORY).resolve(PolicyPuller.FILE));
    }

    /** The controller's StateSaveLocation: the last such line of the slurm.conf it runs on. */
    public static Path stateSaveLocation(LocalClusterLayout layout) throws IOException {
        String dir = null;
        for (String line : Files.readAllLines(layout.slurmConfPath())) {
            String t = line.strip();
            if (t.regionMatches(true, 0, "StateSaveLocation=", 0, 18)) {
                dir = t.substring(18).strip();
            }
        }
        if (dir == null) {
            throw new IOException(layout.slurmConfPath() + " names no StateSaveLocation");
        }
        return Path.of(dir);
    }

    /** Asks the controller whether every node has registered and responds. */
    static boolean allRegistered(LocalClusterLayout layout, int expected) {
        try {
            ClientResponse r =
                    call(layout, ClientRequest.newBuilder().setGetNodes(GetNodesRequest.getDefaultInstance()), 2000);
            List<NodeInfo> nodes = r.getGetNodes().getNodesList();
            return nodes.size() >= expected
                    && nodes.stream()
                            .map(NodeStates::status)
                            .allMatch(n -> !n.has(NodeFlag.NOT_RESPONDING) && n.base() != NodeState.UNKNOWN);
        } catch (IOException | AuthException e) {
            return false;
        }
    }

    /**
     * {@code scontrol reconfigure}: the controller read slurm.conf before the ports were written
     * into it; reading it again makes what it reports and serves (scontrol show config, its
     * HASH_VAL) the file everyone else reads.
     */
    static void reconfigure(LocalClusterLayout layout) throws IOException {
        try {
            ClientResponse r = call(
                    layout,
                    ClientRequest.newBuilder()
                            .setReconfigure(dev.sluice.protocol.v1.ReconfigureRequest.getDefaultInstance()),
                    // The controller waits up to a minute for its loop to take the new files.
                    90_000);
            if (r.hasError()) {
                throw new IOException("reconfigure: " + r.getError().getMessage());
            }
        } catch (AuthException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /** One request to the controller, signed with the cluster key as its owner. */
    private static ClientResponse call(LocalClusterLayout layout, ClientRequest.Builder request, int timeoutMillis)
            throws IOException, AuthException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), layout.ctldPort())) {
            socket.setSoTimeout(timeoutMillis);
            byte[] body =
                    request.setProtocolVersion(Frames.PROTOCOL_VERSION).build().toByteArray();
            com.sun.security.auth.module.UnixSystem me = new com.sun.security.auth.module.UnixSystem();
            String credential = new ClusterCredentials(ClusterKeys.loadFromConfigDir(layout.etc()))
                    .issue(
                            new Principal(me.getUid(), me.getGid(), me.getUsername(), List.of(), "localhost"),
                            "slurmctld",
                            body,
                            java.time.Instant.now(),
                            ClusterCredentials.DEFAULT_TTL);
            Frames.write(
                    SignedRequest.newBuilder()
                            .setRequest(com.google.protobuf.ByteString.copyFrom(body))
                            .setCredential(credential)
                            .build(),
                    socket.getOutputStream());
            return Frames.readAnswer(ClientResponse.parser(), socket.getInputStream());
        }
    }
}
