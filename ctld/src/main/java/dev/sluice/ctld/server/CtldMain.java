package dev.sluice.ctld.server;

import dev.sluice.common.auth.AuthException;
import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.common.conf.CgroupConf;
import dev.sluice.common.conf.CgroupConfReader;
import dev.sluice.common.conf.ConfigException;
import dev.sluice.common.conf.GresConf;
import dev.sluice.common.conf.GresConfReader;
import dev.sluice.common.conf.ListenAddress;
import dev.sluice.common.conf.SlurmConf;
import dev.sluice.common.conf.SlurmConfReader;
import dev.sluice.common.conf.show.ShowConfig;
import dev.sluice.common.daemon.DaemonOptions;
import dev.sluice.common.daemon.DaemonOptions.Option;
import dev.sluice.common.log.DaemonLogging;
import dev.sluice.common.site.SluiceConf;
import dev.sluice.common.systemd.SdNotify;
import dev.sluice.ctld.config.CtldConfig;
import dev.sluice.ctld.config.CtldConfigs;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code sluice-ctld}: the controller's command line, in slurmctld's manner.
 *
 * <pre>
 * sluice-ctld [-D] [-f slurm.conf] [--bind ADDR] [--port PORT] [--grpc-port PORT] [--metrics-port PORT]
 *             [--ports-file FILE] [--truncate-corrupt-journal]
 * sluice-ctld --check-config slurm.conf
 * </pre>
 *
 * {@code --port} and {@code --grpc-port} listen elsewhere than SlurmctldPort and
 * SlurmctldGrpcPort say; {@code --port 0} binds ports the kernel picks (the gRPC port too,
 * unless given), and {@code --ports-file} has the controller write the ports it bound
 * ({@code port=}, {@code grpc=}, {@code metrics=}; {@link dev.sluice.common.daemon.PortsFile})
 * once it serves. That is how {@code ./sluice up} and the tests start it without guessing a free
 * port; the files it serves to configless nodes then carry the bound ports ({@link ServedPorts}).
 * A restart within the process (a journal write failed) binds the same ports again.
 *
 * The command port, the daemons' gRPC port and the metrics bind {@code --bind}, else every
 * address, else with {@code CommunicationParameters=NoCtldInAddrAny} the SlurmctldHost address
 * ({@link ListenAddress}).
 *
 * The configuration is {@code -f}, else {@code $SLURM_CONF}, else /etc/slurm/slurm.conf.
 * Runs in the foreground (systemd and containers supervise it); stops cleanly on SIGTERM/SIGINT.
 */
public final class CtldMain {
    private static final Logger log = LoggerFactory.getLogger(CtldMain.class);

    /** The command line, as slurmctld's {@code -h} lists its own. */
    static final DaemonOptions OPTIONS = DaemonOptions.of(
            "sluice-ctld",
            List.of(
                    Option.withArgument("--bind", "addr", "Listen on this address only (default: all)."),
                    Option.withArgument("--check-config", "file", "Check a slurm.conf, print the verdict and exit."),
                    Option.flag("-D", "Run in the foreground (always; systemd and containers supervise it)."),
                    Option.withArgument("-f", "file", "Use specified file for slurmctld configuration."),
                    DaemonOptions.HELP,
                    Option.flag("-i", "Accepted for slurmctld command lines; no effect."),
                    Option.withArgument(
                            "--grpc-port",
                            "port",
                            "Daemons' gRPC port (default: SlurmctldGrpcPort, else the command port + 100)."),
                    Option.withArgument(
                            "--metrics-port", "port", "Serve Prometheus /metrics on this port (0: any free one)."),
                    Option.withArgument(
                            "--port", "port", "Port for the commands (default: SlurmctldPort; 0: any free one)."),
                    Option.withArgument(
                            "--ports-file",
                            "file",
                            "Write the ports bound here once serving (port=, grpc=, metrics=)."),
                    Option.flag("-R", "Accepted for slurmctld command lines; state is always recovered."),
                    Option.flag(
                            "--truncate-corrupt-journal",
                            "Discard the state journal from a damaged record on, then start.")));

    private CtldMain() {}

    public static void main(String[] args) throws Exception {
        DaemonLogging.install();
        // Whatever this daemon and its libraries create holds users' jobs and secrets.
        dev.sluice.common.files.OwnerOnly.restrictProcessUmask();
        System.exit(run(args, System.getenv(), System.out, System.err));
    }

    static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) throws Exception {
        DaemonOptions.Parsed given;
        Integer metricsPort;
        Integer commandPort;
        Integer grpcPort;
        try {
            given = OPTIONS.parse(List.of(args));
            metricsPort = OPTIONS.port(given, "--metrics-port").orElse(null);
            commandPort = OPTIONS.port(given, "--port").orElse(null);
            grpcPort = OPTIONS.port(given, "--grpc-port").orElse(null);
        } catch (DaemonOptions.UsageException e) {
            return OPTIONS.refuse(e, err);
        }
        if (given.help()) {
            return OPTIONS.help(out);
        }
        Path confPath =
                Path.of(given.last("-f").orElseGet(() -> env.getOrDefault("SLURM_CONF", "/etc/slurm/slurm.conf")));
        // --bind, else what CommunicationParameters says (every address unless NoCtldInAddrAny).
        String bind = given.last("--bind").orElse(null);
        boolean truncate = given.has("--truncate-corrupt-journal");
        if (given.has("--check-config")) {
            return dev.sluice.common.conf.ConfigCheck.run(
                    Path.of(given.last("--check-config").orElseThrow()), out, err);
        }
        CtldConfig config;
        try {
            config = listening(load(confPath, true), commandPort, grpcPort, SluiceConf.besides(confPath));
            if (bind == null) {
                bind = ListenAddress.controller(SlurmConfReader.read(confPath), shortHostName());
            }
        } catch (ConfigException | AuthException e) {
            // As slurmctld with auth/slurm: no readable key, no controller.
            err.println("sluice-ctld: fatal: " + e.getMessage());
            return 1;
        }
        if (metricsPort == null) {
            // -1: off unless sluice.conf asks (SlurmctldMetricsPort) or the command line does.
            metricsPort = SluiceConf.besides(confPath).slurmctldMetricsPort().orElse(-1);
        }
        Path conf = confPath;
        ConfigReloader reloader =
                new ConfigReloader(config.files().configFiles(), config.files().showConfig(), () -> load(conf, false));
        java.util.concurrent.atomic.AtomicReference<CtldServer> current =
                new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.atomic.AtomicBoolean stopping = new java.util.concurrent.atomic.AtomicBoolean();
        SdNotify systemd = SdNotify.fromEnvironment(env);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            systemd.sendOrWarn("STOPPING=1");
            log.info("sluice-ctld shutting down");
            stopping.set(true);
            CtldServer s = current.get();
            if (s != null) {
                s.close();
            }
        }));
        while (!stopping.get()) {
            java.util.concurrent.CompletableFuture<Void> restart = new java.util.concurrent.CompletableFuture<>();
            current.set(CtldServer.start(
                    config,
                    Clock.systemUTC(),
                    bind,
                    truncate,
                    fault -> {
                        if (fault instanceof dev.sluice.ctld.loop.ControllerLoop.RestartRequested) {
                            restart.complete(null);
                            return;
                        }
                        log.error("fatal: {}", fault.toString());
                        Runtime.getRuntime().halt(1);
                    },
                    null,
                    reloader,
                    metricsPort));
            CtldServer started = current.get();
            if (given.has("--ports-file")) {
                Map<String, Integer> ports = new LinkedHashMap<>();
                ports.put("port", started.commandPort());
                ports.put("grpc", started.grpcPort());
                if (started.metricsPort() >= 0) {
                    ports.put("metrics", started.metricsPort());
                }
                dev.sluice.common.daemon.PortsFile.write(
                        Path.of(given.last("--ports-file").orElseThrow()), ports);
            }
            if (commandPort != null || grpcPort != null) {
                // Whoever started it knows these ports now: a restart in this process keeps them.
                commandPort = started.commandPort();
                grpcPort = started.grpcPort();
                metricsPort = started.metricsPort() >= 0 ? started.metricsPort() : metricsPort;
            }
            systemd.sendOrWarn("READY=1\nSTATUS=commands on port " + started.commandPort() + ", daemons on port "
                    + started.grpcPort());
            restart.join();
            // StateSaveLocation failed a write and is writable again: memory may hold changes the
            // disk does not, so the controller is rebuilt from the disk, in this process.
            log.info("restarting the controller from StateSaveLocation");
            current.getAndSet(null).close();
            config = listening(load(confPath, false), commandPort, grpcPort, SluiceConf.besides(confPath));
        }
        return 0;
    }

    /**
     * The configuration on the command line's ports: {@code --port} over SlurmctldPort, {@code
     * --grpc-port} over the gRPC port, which otherwise follows {@code --port} (0 with 0, else
     * {@code --port} + 100 unless sluice.conf names it). Neither given: the files' ports.
     */
    static CtldConfig listening(CtldConfig config, Integer commandPort, Integer grpcPort, SluiceConf site) {
        if (commandPort == null && grpcPort == null) {
            return config;
        }
        int commands = commandPort != null ? commandPort : config.controller().slurmctldPort();
        int daemons;
        if (grpcPort != null) {
            daemons = grpcPort;
        } else if (commandPort == 0) {
            daemons = 0;
        } else {
            daemons = site.slurmctldGrpcPort().orElse(commandPort + CtldConfigs.GRPC_PORT_OFFSET);
        }
        return config.withPorts(commands, daemons);
    }

    /**
     * slurm.conf, gres.conf, sluice.conf and the cluster key (slurm.jwks, else slurm.key) beside
     * it, as the controller's configuration; cgroup.conf too with a cgroup plugin, for {@code
     * scontrol show config}.
     */
    static CtldConfig load(Path confPath, boolean logIgnored) throws ConfigException, IOException, AuthException {
        SlurmConf conf = SlurmConfReader.read(confPath);
        if (logIgnored) {
            conf.ignoredKeys().forEach(k -> log.info("slurm.conf: {} is accepted but not acted upon", k));
        }
        SluiceConf site = SluiceConf.besides(confPath);
        Path gresPath = confPath.toAbsolutePath().resolveSibling("gres.conf");
        GresConf gres = Files.exists(gresPath) ? GresConfReader.read(gresPath) : GresConfReader.parse("", "gres.conf");
        Path cgroupPath = confPath.toAbsolutePath().resolveSibling("cgroup.conf");
        CgroupConf cgroup = ShowConfig.readsCgroupConf(conf) && Files.exists(cgroupPath)
                ? CgroupConfReader.read(cgroupPath)
                : CgroupConf.defaults();
        // Only SlurmctldParameters=enable_configless lets node daemons fetch the files.
        Map<String, byte[]> served = conf.enableConfigless() ? configFiles(confPath) : Map.of();
        ClusterKeys keys =
                ClusterKeys.loadFromConfigDir(confPath.toAbsolutePath().getParent());
        return CtldConfigs.from(
                conf,
                gres,
                cgroup,
                site.slurmctldGrpcPort().orElse(0),
                served,
                keys,
                CtldConfigs.security(conf, site.commandSocket()));
    }

    /** The files a configless node daemon fetches: slurm.conf and its companions. */
    static Map<String, byte[]> configFiles(Path slurmConf) throws IOException {
        Map<String, byte[]> files = new LinkedHashMap<>();
        Path dir = slurmConf.toAbsolutePath().getParent();
        files.put("slurm.conf", Files.readAllBytes(slurmConf));
        // Include files beside slurm.conf travel too; the node daemon's cache is one directory.
        dev.sluice.common.conf.IncludeResolver disk = dev.sluice.common.conf.IncludeResolver.filesystem(dir);
        try {
            dev.sluice.common.conf.SlurmConfReader.parse(
                    Files.readString(slurmConf), slurmConf.toString(), (name, at) -> {
                        var sources = disk.resolve(name, at);
                        if (!name.contains("/") && sources.size() == 1) {
                            files.put(name, sources.get(0).text().getBytes(java.nio.charset.StandardCharsets.UTF_8));
                        } else {
                            log.warn("configless: Include {} is not a file beside slurm.conf and is not served", name);
                        }
                        return sources;
                    });
        } catch (ConfigException e) {
            throw new IOException(e.getMessage(), e);
        }
        for (String name : new String[] {"gres.conf", "cgroup.conf", SluiceConf.FILE_NAME}) {
            Path p = dir.resolve(name);
            if (Files.isRegularFile(p)) {
                files.put(name, Files.readAllBytes(p));
            }
        }
        return files;
    }

    /** This host's name without its domain, as Slurm matches it against SlurmctldHost. */
    static String shortHostName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName().split("\\.")[0];
        } catch (IOException e) {
            return "localhost";
        }
    }
}
