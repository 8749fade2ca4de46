package dev.sluice.packaging;

import dev.sluice.common.auth.AuthException;
import dev.sluice.common.auth.ClusterCredentials;
import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.common.auth.Principal;
import dev.sluice.common.conf.ConfigException;
import dev.sluice.common.conf.SlurmConfReader;
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
 */
public final class LocalCluster {
    private LocalCluster() {}

    public static void main(String[] args) throws Exception {
        System.exit(run(args));
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
        if (siteConf != null) {
            if (!Files.isReadable(siteConf)) {
                System.err.println("sluice: cannot read " + siteConf);
                return 2;
            }
            Path gres = siteGres != null ? siteGres : siteConf.resolveSibling("gres.conf");
            int ctldPort = FreePorts.any();
            int dbdPort = FreePorts.withGrpcAbove();
            SiteConf.Rewritten site =
                    SiteConf.rewrite(Files.readString(siteConf), ctldPort, dbdPort, FreePorts::unchecked);
            nodeNames.addAll(site.nodes());
            accounting = site.accounting();
            layout = new LocalClusterLayout(
                    stateDir, nodeNames.size(), 1, 1, 1, 0, ctldPort, FreePorts.any(), List.of(), dbdPort, 0);
            LocalClusterFiles.writeSite(
                    layout,
                    site.slurmConf(),
                    Files.isReadable(gres) ? Files.readString(gres) : null,
                    siteConf.resolveSibling("cgroup.conf"),
                    binDir.toAbsolutePath().normalize());
            nodes = nodeNames.size();
        } else {
            List<Integer> nodePorts = new ArrayList<>();
            for (int n = 0; n < nodes; n++) {
                nodePorts.add(FreePorts.any());
                nodeNames.add(LocalClusterLayout.nodeName(n + 1));
            }
            layout = new LocalClusterLayout(
                    stateDir,
                    nodes,
                    cpus,
                    threads,
                    memory > 0 ? memory : 1000L * cpus,
                    gpus,
                    FreePorts.any(),
                    FreePorts.any(),
                    nodePorts,
                    FreePorts.withGrpcAbove(),
                    mps);
            LocalClusterFiles.write(layout, binDir.toAbsolutePath().normalize());
        }
        if (!overrides.isEmpty()) {
            Files.writeString(
                    layout.slurmConfPath(),
                    LocalClusterFiles.overridden(Files.readString(layout.slurmConfPath()), overrides));
        }
        int metricsPort = FreePorts.any();
        List<Integer> nodeMetricsPorts = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            nodeMetricsPorts.add(FreePorts.any());
        }
        String metricsUrl = "http://127.0.0.1:" + metricsPort + "/metrics";
        // The REST daemon runs where the configuration has JWT tokens for it to check.
        int restPort = servesRest(layout) ? FreePorts.any() : 0;
        String restUrl = "http://127.0.0.1:" + restPort;
        Files.writeString(
                stateDir.resolve("sluice.env"),
                "export SLUICE_METRICS_URL='" + metricsUrl + "'\n"
                        + (restPort > 0 ? "export SLURMRESTD_URL='" + restUrl + "'\n" : ""),
                java.nio.file.StandardOpenOption.APPEND);

        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = System.getProperty("java.class.path");
        List<Supervised> daemons = new ArrayList<>();
        // Accounting on the embedded, file-backed H2 (the same Flyway migrations as MariaDB).
        if (accounting)
            daemons.add(new Supervised(
                    "sluice-dbd",
                    JvmCommand.of(
                            java,
                            "DBD",
                            List.of(
                                    "-Xmx256m",
                                    "-XX:+UseSerialGC",
                                    "-XX:TieredStopAtLevel=1",
                                    "--enable-native-access=ALL-UNNAMED"),
                            List.of(
                                    "-cp",
                                    classpath,
                                    "dev.sluice.dbd.server.DbdMain",
                                    "-D",
                                    "-f",
                                    layout.etc().resolve("slurmdbd.conf").toString(),
                                    "--data-dir",
                                    stateDir.resolve("dbd").toString(),
                                    "--port",
                                    Integer.toString(layout.dbdPort()),
                                    "--grpc-port",
                                    Integer.toString(layout.dbdPort() + 100),
                                    "--key-file",
                                    layout.etc().resolve(ClusterKeys.KEY_FILE).toString())),
                    layout.logDir().resolve("dbd.log"),
                    layout.runDir().resolve("dbd.pid")));
        daemons.add(new Supervised(
                "sluice-ctld",
                JvmCommand.of(
                        java,
                        "CTLD",
                        List.of("-Xmx512m", "--enable-native-access=ALL-UNNAMED"),
                        List.of(
                                "-cp",
                                classpath,
                                "dev.sluice.ctld.server.CtldMain",
                                "-D",
                                "-f",
                                layout.slurmConfPath().toString(),
                                "--metrics-port",
                                Integer.toString(metricsPort))),
                layout.logDir().resolve("ctld.log"),
                layout.runDir().resolve("ctld.pid")));
        for (int n = 1; n <= nodes; n++) {
            String name = nodeNames.get(n - 1);
            daemons.add(new Supervised(
                    "sluice-noded " + name,
                    JvmCommand.of(
                            java,
                            "NODED",
                            // Without C2, as bin/_sluice-java runs an installed node daemon.
                            List.of(
                                    "-Xmx256m",
                                    "-XX:+UseSerialGC",
                                    "-XX:TieredStopAtLevel=1",
                                    "--enable-native-access=ALL-UNNAMED"),
                            List.of(
                                    "-cp",
                                    classpath,
                                    "dev.sluice.noded.server.NodedMain",
                                    "-D",
                                    "-f",
                                    layout.slurmConfPath().toString(),
                                    "-N",
                                    name,
                                    "--metrics-port",
                                    Integer.toString(nodeMetricsPorts.get(n - 1)))),
                    layout.logDir().resolve(name + ".log"),
                    layout.runDir().resolve(name + ".pid")));
        }
        // The commands' warm runner: bin/sbatch & co. reach it through SLUICE_AGENT_SOCKET.
        daemons.add(new Supervised(
                "sluice-agent",
                List.of(
                        java,
                        "-Xmx256m",
                        "-XX:+UseSerialGC",
                        "--add-opens",
                        "java.base/sun.nio.fs=ALL-UNNAMED",
                        "-cp",
                        classpath,
                        "dev.sluice.cli.agent.AgentMain",
                        "--socket",
                        layout.agentSocket().toString(),
                        "--conf",
                        layout.slurmConfPath().toString()),
                layout.logDir().resolve("agent.log"),
                layout.runDir().resolve("agent.pid")));
        if (restPort > 0) {
            daemons.add(new Supervised(
                    "sluice-restd",
                    // One person's cluster, whoever started it: root too, where slurmrestd's
                    // root check (LocalMode) would stop it.
                    List.of(
                            "/usr/bin/env",
                            "SLURMRESTD_SECURITY=disable_user_check",
                            java,
                            "-Xmx256m",
                            "-XX:+UseSerialGC",
                            "-cp",
                            classpath,
                            "dev.sluice.restd.RestdMain",
                            "-f",
                            layout.slurmConfPath().toString(),
                            "127.0.0.1:" + restPort),
                    layout.logDir().resolve("restd.log"),
                    layout.runDir().resolve("restd.pid")));
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            daemons.forEach(Supervised::stop);
            daemons.forEach(Supervised::awaitStopped);
            System.out.println("sluice: stopped");
        }));
        long deadline = System.nanoTime() + 120_000_000_000L;
        for (Supervised d : daemons) {
            d.start();
        }
        while (!allRegistered(layout, nodes)) {
            if (System.nanoTime() > deadline) {
                System.err.println("sluice: the cluster did not come up within 120 s; see " + layout.logDir());
                return 1;
            }
            Thread.sleep(200);
        }
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
        if (restPort > 0) {
            System.out.println("REST API: " + restUrl + "/slurm/v0.0.44/ (tokens: scontrol token)");
        }
        Thread.currentThread().join();
        return 0;
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
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), layout.ctldPort())) {
            socket.setSoTimeout(2000);
            byte[] request = ClientRequest.newBuilder()
                    .setProtocolVersion(Frames.PROTOCOL_VERSION)
                    .setGetNodes(GetNodesRequest.getDefaultInstance())
                    .build()
                    .toByteArray();
            com.sun.security.auth.module.UnixSystem me = new com.sun.security.auth.module.UnixSystem();
            String credential = new ClusterCredentials(ClusterKeys.loadFromConfigDir(layout.etc()))
                    .issue(
                            new Principal(me.getUid(), me.getGid(), me.getUsername(), List.of(), "localhost"),
                            "slurmctld",
                            request,
                            java.time.Instant.now(),
                            ClusterCredentials.DEFAULT_TTL);
            Frames.write(
                    SignedRequest.newBuilder()
                            .setRequest(com.google.protobuf.ByteString.copyFrom(request))
                            .setCredential(credential)
                            .build(),
                    socket.getOutputStream());
            ClientResponse r = Frames.readAnswer(ClientResponse.parser(), socket.getInputStream());
            List<NodeInfo> nodes = r.getGetNodes().getNodesList();
            return nodes.size() >= expected
                    && nodes.stream()
                            .allMatch(n -> !n.getFlagsList().contains("NOT_RESPONDING")
                                    && !n.getState().equals("UNKNOWN"));
        } catch (IOException | AuthException e) {
            return false;
        }
    }
}
