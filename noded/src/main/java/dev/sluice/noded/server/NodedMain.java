package dev.sluice.noded.server;

import dev.sluice.common.auth.AuthException;
import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.common.conf.ConfigException;
import dev.sluice.common.conf.NodeConf;
import dev.sluice.common.daemon.DaemonOptions;
import dev.sluice.common.daemon.DaemonOptions.Option;
import dev.sluice.common.log.DaemonLogging;
import dev.sluice.noded.conf.ConfigFetcher;
import dev.sluice.noded.probe.HardwareProbe;
import dev.sluice.noded.probe.gres.GresDiscovery;
import dev.sluice.noded.probe.gres.JnaNvml;
import dev.sluice.noded.probe.gres.Nvml;
import dev.sluice.noded.probe.gres.NvmlRecording;
import dev.sluice.protocol.v1.NodeHardware;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;

/**
 * {@code sluice-noded}: the node daemon's command line, in slurmd's manner.
 *
 * <pre>
 * sluice-noded [-D] [-f slurm.conf | --conf-server host[:port]] [-N nodename] [--port N] [--metrics-port N]
 *              [--drain-reason TEXT]
 *              [--addr ADDR] [--spool-dir DIR] [-Z --conf "CPUs=8 RealMemory=64000 Gres=gpu:3 Feature=a100"]
 *              [--key-file FILE] [--ports-file FILE]
 * sluice-noded -C
 * sluice-noded --nvml-dump
 * </pre>
 *
 * The cluster key is {@code --key-file} (a raw key or a {@code .jwks} key set), else the
 * {@code slurm.jwks} or {@code slurm.key} beside slurm.conf; a configless daemon, which has no
 * slurm.conf until it has authenticated, looks in {@value #DEFAULT_KEY_DIR}.
 *
 * <p>{@code --port 0} binds a port the kernel picks, which the daemon registers with (the
 * controller reaches the node there, whatever slurm.conf's {@code Port=} says), and {@code
 * --ports-file} has it write the ports it bound ({@code port=}, {@code metrics=}; {@link
 * dev.sluice.common.daemon.PortsFile}) once it serves.
 *
 * <p>SIGTERM stops the daemon and leaves running jobs to the next one; SIGUSR1 drains the node
 * (reason {@code --drain-reason}), waits until its jobs and steps have ended, then exits 0.
 */
public final class NodedMain {
    /** slurmd's compiled-in SlurmdSpoolDir, where a configless daemon keeps its cache. */
    static final String DEFAULT_SPOOL = "/var/spool/slurmd";

    /** Where a configless daemon finds slurm.key (or slurm.jwks) without --key-file. */
    static final String DEFAULT_KEY_DIR = "/etc/slurm";

    /** The command line, as slurmd's {@code -h} lists its own. */
    static final DaemonOptions OPTIONS = DaemonOptions.of(
            "sluice-noded",
            List.of(
                    Option.withArgument(
                            "--addr",
                            "addr",
                            "Address to register (default: NodeAddr, else as the controller sees it)."),
                    Option.flag("-C", "Print node configuration information and exit."),
                    Option.withArgument("--conf", "'params'", "Dynamic node configuration, works with -Z."),
                    Option.withArgument("--conf-server", "host[:port]", "Get configs from slurmctld at `host[:port]`."),
                    Option.flag("-D", "Run daemon in foreground (always)."),
                    Option.withArgument("--drain-reason", "text", "Reason for the drain SIGUSR1 starts."),
                    Option.withArgument("-f", "config", "Read configuration from the specified file."),
                    DaemonOptions.HELP,
                    Option.withArgument(
                            "--key-file", "file", "Cluster key (default: slurm.key or slurm.jwks beside slurm.conf)."),
                    Option.withArgument(
                            "--metrics-port", "port", "Serve Prometheus /metrics on this port (0: any free one)."),
                    Option.withArgument("-N", "node", "Run the daemon for specified nodename."),
                    Option.flag("--nvml-dump", "Print what NVML reports about the GPUs and exit."),
                    Option.withArgument("--port", "port", "Listen on this port (default: the node's Port; 0: any)."),
                    Option.withArgument(
                            "--ports-file", "file", "Write the ports bound here once serving (port=, metrics=)."),
                    Option.withArgument("--spool-dir", "dir", "Spool directory (default: SlurmdSpoolDir)."),
                    Option.flag("-Z", "Start as Dynamic Normal node.")));

    private NodedMain() {}

    public static void main(String[] args) throws Exception {
        DaemonLogging.install();
        // Whatever this daemon and its libraries create holds users' jobs and secrets.
        dev.sluice.common.files.OwnerOnly.restrictProcessUmask();
        System.exit(run(args, System.getenv(), System.out, System.err));
    }

    static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) throws Exception {
        DaemonOptions.Parsed given;
        Integer port;
        Integer metricsPort;
        try {
            given = OPTIONS.parse(List.of(args));
            port = OPTIONS.port(given, "--port").orElse(null);
            metricsPort = OPTIONS.port(given, "--metrics-port").orElse(null);
        } catch (DaemonOptions.UsageException e) {
            return OPTIONS.refuse(e, err);
        }
        if (given.help()) {
            return OPTIONS.help(out);
        }
        Path confPath =
                Path.of(given.last("-f").orElseGet(() -> env.getOrDefault("SLURM_CONF", "/etc/slurm/slurm.conf")));
        boolean named = given.has("-N");
        String name = given.last("-N").orElseGet(dev.sluice.common.daemon.HostName::shortName);
        String addr = given.last("--addr").orElse(null);
        String spool = given.last("--spool-dir").orElse(null);
        String confServer = given.last("--conf-server").orElse(null);
        boolean dynamic = given.has("-Z");
        String dynConf = given.last("--conf").orElse("");
        boolean print = given.has("-C");
        boolean nvmlDump = given.has("--nvml-dump");
        String keyFile = given.last("--key-file").orElse(null);
        String drainReason = given.last("--drain-reason").orElse("scale-in: sluice-noded drain-and-exit");
        if (nvmlDump) {
            return dumpNvml(out, err);
        }
        HardwareProbe.Detected detected = HardwareProbe.detect();
        if (print) {
            long uptime = (long) Double.parseDouble(uptimeSeconds());
            out.println(HardwareProbe.describe(name, detected, uptime));
            return 0;
        }
        NodeSetup.Options options = new NodeSetup.Options(name, named, port, addr, spool, dynamic, dynConf);
        GresDiscovery discovery = new GresDiscovery(new JnaNvml(), f -> Files.exists(Path.of(f)));
        Callable<NodedSettings> load;
        Path siteConf = confPath;
        if (confServer != null) {
            // Configless: the cache sits in the spool directory named on the command line (the
            // configuration that would name another one is what is being fetched).
            List<ConfigFetcher.Server> servers = ConfigFetcher.Server.parse(confServer);
            Path cache = Path.of((spool != null ? spool : DEFAULT_SPOOL).replace("%n", name))
                    .resolve("conf-cache");
            // The cluster key is --key-file when given, else provisioned beside where slurm.conf
            // would be ($SLURM_CONF's directory, /etc/slurm by default), as Slurm's slurm.key is
            // on configless nodes: the same key the daemon registers with below.
            java.util.Optional<dev.sluice.common.auth.ClusterKeys> keys;
            try {
                keys = java.util.Optional.of(
                        keyFile != null
                                ? dev.sluice.common.auth.ClusterKeys.load(Path.of(keyFile))
                                : dev.sluice.common.auth.ClusterKeys.loadFromConfigDir(
                                        confPath.toAbsolutePath().getParent()));
            } catch (dev.sluice.common.auth.AuthException | IllegalArgumentException e) {
                err.println("sluice-noded: warning: configless: " + e.getMessage()
                        + "; the controller will refuse to serve the configuration");
                keys = java.util.Optional.empty();
            }
            java.util.Optional<dev.sluice.common.auth.ClusterKeys> fetchKeys = keys;
            siteConf = cache.resolve("slurm.conf");
            load = () -> NodeSetup.load(
                    ConfigFetcher.fetchOrCached(servers, cache, fetchKeys), options, detected, discovery);
        } else {
            Path local = confPath;
            load = () -> NodeSetup.load(local, options, detected, discovery);
        }
        Path keyDir = confServer != null
                ? Path.of(DEFAULT_KEY_DIR)
                : confPath.toAbsolutePath().getParent();
        Path explicitKey = keyFile == null ? null : Path.of(keyFile);
        Callable<ClusterKeys> keys =
                () -> explicitKey != null ? ClusterKeys.load(explicitKey) : ClusterKeys.loadFromConfigDir(keyDir);
        NodedSettings settings;
        ClusterKeys initialKeys;
        try {
            // The key first: without it the daemon can neither fetch its configuration nor serve.
            initialKeys = keys.call();
            settings = load.call();
        } catch (ConfigException | AuthException | java.io.IOException e) {
            err.println("sluice-noded: fatal: " + e.getMessage());
            return 1;
        }
        Supplier<ClusterKeys> reloadKeys = () -> {
            try {
                return keys.call();
            } catch (Exception e) {
                throw new IllegalStateException(e.getMessage(), e);
            }
        };
        if (metricsPort == null) {
            // Off unless the command line or sluice.conf (SlurmdMetricsPort) asks for it.
            metricsPort = dev.sluice.common.site.SluiceConf.besides(siteConf)
                    .slurmdMetricsPort()
                    .orElse(-1);
        }
        NodedServer server = NodedServer.builder(settings, initialKeys)
                .reloadKeys(reloadKeys)
                .reload(() -> {
                    try {
                        return load.call();
                    } catch (Exception e) {
                        throw new IllegalStateException(e.getMessage(), e);
                    }
                })
                .metricsPort(metricsPort)
                .start();
        if (given.has("--ports-file")) {
            Map<String, Integer> ports = new LinkedHashMap<>();
            ports.put("port", server.port());
            if (server.metricsPort() >= 0) {
                ports.put("metrics", server.metricsPort());
            }
            dev.sluice.common.daemon.PortsFile.write(
                    Path.of(given.last("--ports-file").orElseThrow()), ports);
        }
        CountDownLatch stopped = new CountDownLatch(1);
        var systemd = dev.sluice.common.systemd.SdNotify.fromEnvironment(env);
        systemd.sendOrWarn("READY=1\nSTATUS=node " + settings.nodeName() + " serving on port " + server.port());
        String reason = drainReason;
        // SIGUSR1: drain and exit once the node's jobs are done (scale-in, rolling upgrades).
        // SIGTERM stays a plain stop that leaves jobs running for the next daemon to adopt.
        DrainSignal.install(() -> {
            systemd.sendOrWarn("STATUS=draining: waiting for running jobs to end");
            server.drainAndExit(reason).thenRun(() -> System.exit(0));
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            systemd.sendOrWarn("STOPPING=1");
            server.close();
            stopped.countDown();
        }));
        stopped.await();
        return 0;
    }

    /** {@code --nvml-dump}: what NVML says, in the form tests replay ({@link NvmlRecording}). */
    private static int dumpNvml(PrintStream out, PrintStream err) {
        try {
            out.print(NvmlRecording.format(new JnaNvml().devices()));
            return 0;
        } catch (Nvml.NvmlUnavailableException e) {
            err.println("sluice-noded: " + e.getMessage());
            return 1;
        }
    }

    private static String uptimeSeconds() {
        try {
            return java.nio.file.Files.readString(Path.of("/proc/uptime")).split("\\s+")[0];
        } catch (java.io.IOException e) {
            return "0";
        }
    }

    static NodeHardware hardware(NodeConf n) {
        return NodeHardware.newBuilder()
                .setCpus(n.hardware().cpus())
                .setBoards(n.hardware().boards())
                .setSockets(n.hardware().sockets())
                .setCoresPerSocket(n.hardware().coresPerSocket())
                .setThreadsPerCore(n.hardware().threadsPerCore())
                .setRealMemoryMb(n.hardware().realMemoryMb())
                .setTmpDiskMb(n.hardware().tmpDiskMb())
                .setGres(n.gres().raw())
                .addAllFeatures(n.features())
                .build();
    }

    /** {@code --conf}'s {@code Key=Value} words, keys in lower case (slurm.conf's are case-blind). */
    static Map<String, String> dynamicPairs(String conf) {
        Map<String, String> kv = new LinkedHashMap<>();
        for (String token : conf.trim().split("\\s+")) {
            int eq = token.indexOf('=');
            if (eq > 0) {
                kv.put(token.substring(0, eq).toLowerCase(Locale.ROOT), token.substring(eq + 1));
            }
        }
        return kv;
    }

    /** {@code -Z --conf "CPUs=8 RealMemory=64000 Gres=gpu:3 Feature=a100"} over detected values. */
    static NodeHardware dynamicHardware(HardwareProbe.Detected d, String conf) {
        Map<String, String> kv = dynamicPairs(conf);
        NodeHardware.Builder b = NodeHardware.newBuilder()
                .setCpus(Integer.parseInt(kv.getOrDefault("cpus", Integer.toString(d.cpus()))))
                .setBoards(d.boards())
                .setSockets(d.sockets())
                .setCoresPerSocket(d.coresPerSocket())
                .setThreadsPerCore(
                        Integer.parseInt(kv.getOrDefault("threadspercore", Integer.toString(d.threadsPerCore()))))
                .setRealMemoryMb(Long.parseLong(kv.getOrDefault("realmemory", Long.toString(d.realMemoryMb()))))
                .setGres(kv.getOrDefault("gres", ""));
        String features = kv.getOrDefault("feature", kv.getOrDefault("features", ""));
        if (!features.isEmpty()) {
            b.addAllFeatures(java.util.List.of(features.split(",")));
        }
        if (kv.containsKey("cpus") && !kv.containsKey("threadspercore")) {
            b.setSockets(b.getCpus()).setCoresPerSocket(1).setThreadsPerCore(1);
        }
        return b.build();
    }
}
