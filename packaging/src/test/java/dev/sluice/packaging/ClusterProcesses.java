package dev.sluice.packaging;

import static org.awaitility.Awaitility.await;

import dev.sluice.common.files.OwnerOnly;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A real local cluster for end-to-end tests: the controller and node daemons as separate JVM
 * processes on 127.0.0.1 with ephemeral ports, configured exactly as {@code ./sluice up} does,
 * and the user commands run as processes too — the path a user takes.
 */
final class ClusterProcesses implements AutoCloseable {
    /** Its ports filled in as the daemons, started on port 0, report them. */
    private volatile LocalClusterLayout layout;

    private final Path workDir;
    private final String java =
            Path.of(System.getProperty("java.home"), "bin", "java").toString();
    private final String classpath = System.getProperty("java.class.path");
    private Process ctld;
    private Process dbd;
    private final List<Process> nodes = new ArrayList<>();

    record Result(int exitCode, String out, String err) {}

    ClusterProcesses(Path stateDir, int nodeCount, int cpus, int threadsPerCore) throws IOException {
        this(stateDir, nodeCount, cpus, threadsPerCore, 3, 0);
    }

    /** A cluster with {@code gpus} fake GPUs per node, each with {@code mpsPerGpu} MPS shares. */
    ClusterProcesses(Path stateDir, int nodeCount, int cpus, int threadsPerCore, int gpus, int mpsPerGpu)
            throws IOException {
        this(stateDir, nodeCount, cpus, threadsPerCore, gpus, mpsPerGpu, false);
    }

    /** As {@code ./sluice up} runs it: with sluice-dbd on its embedded database. */
    static ClusterProcesses withAccounting(Path stateDir, int nodeCount, int cpus) throws IOException {
        return new ClusterProcesses(stateDir, nodeCount, cpus, 1, 3, 0, true);
    }

    private ClusterProcesses(
            Path stateDir, int nodeCount, int cpus, int threadsPerCore, int gpus, int mpsPerGpu, boolean accounting)
            throws IOException {
        int unbound = LocalClusterLayout.UNBOUND;
        layout = new LocalClusterLayout(
                stateDir,
                nodeCount,
                cpus,
                threadsPerCore,
                1000L * cpus,
                gpus,
                unbound,
                unbound,
                Collections.nCopies(nodeCount, unbound),
                accounting ? unbound : 0,
                mpsPerGpu);
        LocalClusterFiles.write(layout, stateDir.resolve("bin"));
        workDir = stateDir.resolve("work");
        Files.createDirectories(workDir);
    }

    Path workDir() {
        return workDir;
    }

    LocalClusterLayout layout() {
        return layout;
    }

    /** The cluster key the daemons share. */
    Path keyFile() {
        return layout.etc().resolve("slurm.key");
    }

    void start() throws IOException {
        start(Duration.ofSeconds(60));
    }

    /** As {@link #start()}, allowing the nodes {@code registration} to come up (a loaded machine). */
    void start(Duration registration) throws IOException {
        if (layout.dbdPort() != 0) {
            Files.deleteIfExists(layout.portsFile("dbd"));
            dbd = process(
                    "dev.sluice.dbd.server.DbdMain",
                    "dbd",
                    List.of(
                            "-f",
                            layout.etc().resolve("slurmdbd.conf").toString(),
                            "--bind",
                            "127.0.0.1",
                            "--data-dir",
                            layout.stateDir().resolve("dbd").toString(),
                            "--port",
                            "0",
                            "--ports-file",
                            layout.portsFile("dbd").toString(),
                            "--key-file",
                            keyFile().toString()));
            // The controller finds it at AccountingStoragePort (its gRPC port is 100 above).
            layout = layout.withPorts(
                    layout.ctldPort(), layout.grpcPort(), reported("dbd").get("port"));
            LocalClusterFiles.stampPorts(layout);
        }
        startController();
        for (int i = 1; i <= layout.nodes(); i++) {
            nodes.add(null);
            startNode(i);
        }
        List<Integer> ports = new ArrayList<>();
        for (int i = 1; i <= layout.nodes(); i++) {
            ports.add(reported(LocalClusterLayout.nodeName(i)).get("port"));
        }
        layout = layout.withNodePorts(ports);
        awaitNodesUp(registration);
    }

    /**
     * The controller: on port 0 the first time, its ports then written into slurm.conf and
     * sluice.conf for everyone else; again (after a crash) on the ports those files name.
     */
    void startController() throws IOException {
        if (layout.ctldPort() != LocalClusterLayout.UNBOUND) {
            ctld = daemon("dev.sluice.ctld.server.CtldMain", "ctld");
            return;
        }
        Files.deleteIfExists(layout.portsFile("ctld"));
        ctld = daemon(
                "dev.sluice.ctld.server.CtldMain",
                "ctld",
                "--port",
                "0",
                "--ports-file",
                layout.portsFile("ctld").toString());
        Map<String, Integer> ports = reported("ctld");
        layout = layout.withPorts(ports.get("port"), ports.get("grpc"), layout.dbdPort());
        LocalClusterFiles.stampPorts(layout);
    }

    /** The ports a daemon started with {@code --ports-file} reported. */
    private Map<String, Integer> reported(String daemon) {
        Path file = layout.portsFile(daemon);
        try {
            return await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> dev.sluice.common.daemon.PortsFile.read(file), Optional::isPresent)
                    .orElseThrow();
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new IllegalStateException(daemon + " reported no ports in " + file, e);
        }
    }

    void awaitNodesUp() {
        awaitNodesUp(Duration.ofSeconds(60));
    }

    void awaitNodesUp(Duration limit) {
        await().atMost(limit)
                .pollInterval(Duration.ofMillis(100))
                .until(() -> LocalCluster.allRegistered(layout, layout.nodes()));
        if (layout.dbdPort() != 0) {
            // As `./sluice up`: with accounting, up means the controller holds the associations
            // (the dbd may still be migrating its database when the nodes are already in).
            await().atMost(limit).pollInterval(Duration.ofMillis(100)).until(() -> LocalCluster.holdsPolicy(layout));
        }
    }

    /**
     * A sluice-agent for this cluster that every local user can reach (its directory, and the
     * state directory above it, searchable by all), started and answering; returns its socket.
     */
    Path startAgentForAll() throws IOException {
        var perms = Files.getPosixFilePermissions(layout.stateDir());
        perms.add(PosixFilePermission.OTHERS_EXECUTE);
        Files.setPosixFilePermissions(layout.stateDir(), perms);
        Path run = Files.createDirectories(layout.stateDir().resolve("agent"));
        Files.setPosixFilePermissions(run, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path socket = run.resolve("agent.sock");
        startAgent(socket);
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(socket));
        return socket;
    }

    /** A sluice-agent process on {@code socket}, as {@code ./sluice up} starts one. */
    Process startAgent(Path socket) throws IOException {
        List<String> cmd = List.of(
                java,
                "-Xmx128m",
                "-XX:+UseSerialGC",
                "--add-opens",
                "java.base/sun.nio.fs=ALL-UNNAMED",
                "-cp",
                classpath,
                "dev.sluice.cli.agent.AgentMain",
                "--socket",
                socket.toString(),
                "--conf",
                layout.slurmConfPath().toString());
        Files.createDirectories(layout.logDir());
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        OwnerOnly.privateFile(layout.logDir().resolve("agent.log"))
                                .toFile()))
                .start();
        nodes.add(p);
        return p;
    }

    /** A launcher like bin/_sluice-java for this build: what the front end falls back to. */
    Path fallbackBin() throws IOException {
        Path dir = layout.stateDir().resolve("fallback-bin");
        Files.createDirectories(dir);
        Path file = dir.resolve("_sluice-java");
        Files.writeString(
                file,
                "#!/bin/sh\nmain=$1; shift\nexec '" + java + "' -XX:TieredStopAtLevel=1 -cp '" + sharedClasspath()
                        + "' \"$main\" \"$@\"\n");
        file.toFile().setExecutable(true, false);
        return dir;
    }

    /** kill -9: no shutdown hook, no flush, exactly a crash. */
    void crashController() throws InterruptedException {
        ctld.destroyForcibly();
        ctld.waitFor(10, TimeUnit.SECONDS);
    }

    /** Rewrites slurm.conf before the daemons start (a short SlurmdTimeout, say). */
    void editSlurmConf(java.util.function.UnaryOperator<String> edit) throws IOException {
        Files.writeString(layout.slurmConfPath(), edit.apply(Files.readString(layout.slurmConfPath())));
    }

    /** Appends lines to gres.conf (a dynamic node's File= lines). */
    void appendGresConf(String lines) throws IOException {
        Path gres = layout.etc().resolve("gres.conf");
        Files.writeString(gres, Files.readString(gres) + lines);
    }

    /** One more node daemon with its own arguments, reading the local slurm.conf. */
    Process startNode(String logName, String... args) throws IOException {
        Process p = daemon("dev.sluice.noded.server.NodedMain", logName, args);
        nodes.add(p);
        return p;
    }

    /**
     * A node daemon given no slurm.conf at all: {@code --conf-server} and its arguments, and the
     * cluster key the administrator put on the node.
     */
    Process startConfiglessNode(String logName, String... args) throws IOException {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--key-file", keyFile().toString()));
        Process p = process("dev.sluice.noded.server.NodedMain", logName, all);
        nodes.add(p);
        return p;
    }

    /** kill -9 of one daemon. */
    static void crash(Process p) throws InterruptedException {
        p.destroyForcibly();
        p.waitFor(10, TimeUnit.SECONDS);
    }

    /** SIGTERM, and wait until it is gone. */
    static void stop(Process p) throws InterruptedException {
        p.destroy();
        if (!p.waitFor(15, TimeUnit.SECONDS)) {
            crash(p);
        }
    }

    private Process daemon(String main, String logName, String... args) throws IOException {
        List<String> all = new ArrayList<>(List.of("-f", layout.slurmConfPath().toString()));
        all.addAll(List.of(args));
        return process(main, logName, all);
    }

    private Process process(String main, String logName, List<String> args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(
                java,
                "-Xmx256m",
                "-XX:+UseSerialGC",
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                classpath,
                main,
                "-D"));
        cmd.addAll(args);
        Files.createDirectories(layout.logDir());
        ProcessBuilder pb = new ProcessBuilder(cmd);
        // A configless node daemon has no slurm.conf at all, as on a fresh node: it finds the
        // cluster key from --key-file alone. Every other daemon is told where slurm.conf is.
        if (args.contains("--conf-server")) {
            pb.environment().remove("SLURM_CONF");
        } else {
            pb.environment().put("SLURM_CONF", layout.slurmConfPath().toString());
        }
        return pb.redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        OwnerOnly.privateFile(layout.logDir().resolve(logName + ".log"))
                                .toFile()))
                .start();
    }

    /** Runs a user command (sbatch, squeue, ...) in the work directory. */
    Result command(String name, String... args) throws IOException, InterruptedException {
        return commandWithInput(null, name, args);
    }

    Result commandWithInput(String stdin, String name, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(
                java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", classpath, "dev.sluice.cli.Main", name));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(workDir.toFile());
        Map<String, String> env = new HashMap<>(pb.environment());
        env.put("SLURM_CONF", layout.slurmConfPath().toString());
        // Jobs inherit this PATH (--export=ALL), so a batch script finds srun.
        env.put("PATH", commandDir() + File.pathSeparator + env.getOrDefault("PATH", "/usr/bin:/bin"));
        pb.environment().putAll(env);
        Path out = Files.createTempFile(workDir, "out", ".txt");
        Path err = Files.createTempFile(workDir, "err", ".txt");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        if (stdin == null) {
            pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        }
        Process p = pb.start();
        if (stdin != null) {
            p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
            p.getOutputStream().close();
        }
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(name + " did not finish");
        }
        Result r = new Result(p.exitValue(), Files.readString(out), Files.readString(err));
        Files.delete(out);
        Files.delete(err);
        return r;
    }

    /**
     * Runs a shell script, given as bytes, in the work directory with this cluster's commands
     * first on PATH: for command lines and environments a Java String cannot pass as they are
     * (a byte that is not UTF-8; the JDK encodes a child's argv and environment in the locale's
     * charset).
     */
    Result shell(byte[] script) throws IOException, InterruptedException {
        Path file = Files.createTempFile(workDir, "run", ".sh");
        Files.write(file, script);
        ProcessBuilder pb = new ProcessBuilder("/bin/sh", file.toString()).directory(workDir.toFile());
        pb.environment().put("SLURM_CONF", layout.slurmConfPath().toString());
        pb.environment().put("PATH", commandDir() + File.pathSeparator + "/usr/bin:/bin");
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        byte[] err = p.getErrorStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(file + " did not finish");
        }
        Files.delete(file);
        return new Result(
                p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }

    /**
     * Runs a user command as another (non-root) user, through {@code setpriv}. The test's class
     * path lives partly under a home directory that user cannot enter, so its jars are linked
     * into a directory everyone can read first.
     */
    Result commandAs(int uid, int gid, Path cwd, String name, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(
                "setpriv",
                "--reuid=" + uid,
                "--regid=" + gid,
                "--clear-groups",
                "--",
                java,
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-cp",
                sharedClasspath(),
                "dev.sluice.cli.Main",
                name));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile());
        pb.environment().put("SLURM_CONF", layout.slurmConfPath().toString());
        pb.environment().put("HOME", cwd.toString());
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        byte[] err = p.getErrorStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(name + " did not finish");
        }
        return new Result(
                p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }

    private String sharedClasspath;
    private Path commandDir;
    private Map<String, String> clientEnv;

    /**
     * The environment a user gets from {@code source .sluice/sluice.env}, for programs that call
     * the Slurm commands by name (workflow tools): every command on PATH first. Where the native
     * front end is built, the commands are links to it and a sluice-agent runs them warm, as
     * {@code ./sluice up} does; otherwise each is a script that runs it in a JVM.
     */
    synchronized Map<String, String> clientEnv() throws IOException {
        if (clientEnv == null) {
            Map<String, String> env = new HashMap<>();
            Path dir = Files.createDirectories(layout.stateDir().resolve("client-bin"));
            Path nativeClient =
                    Path.of("../cli/target/sluice-client").toAbsolutePath().normalize();
            boolean warm = Files.isExecutable(nativeClient);
            if (warm) {
                Path socket = Files.createDirectories(layout.stateDir().resolve("client-agent"))
                        .resolve("agent.sock");
                startAgent(socket);
                await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(socket));
                env.put("SLUICE_AGENT_SOCKET", socket.toString());
                env.put("SLUICE_BIN", fallbackBin().toString());
            }
            for (String name : dev.sluice.cli.Commands.names()) {
                Path file = dir.resolve(name);
                Files.deleteIfExists(file);
                if (warm) {
                    Files.createSymbolicLink(file, nativeClient);
                } else {
                    Files.writeString(
                            file,
                            "#!/bin/sh\nexec '" + java + "' -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp '" + classpath
                                    + "' dev.sluice.cli.Main " + name + " \"$@\"\n");
                    file.toFile().setExecutable(true, false);
                }
            }
            env.put("SLURM_CONF", layout.slurmConfPath().toString());
            env.put("PATH", dir + File.pathSeparator + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
            clientEnv = Map.copyOf(env);
        }
        return clientEnv;
    }

    /**
     * Runs a program (a workflow tool) in {@code cwd} with {@link #clientEnv()} and {@code extra}
     * on top, stdout and stderr together, for at most {@code limit}.
     */
    Result client(Path cwd, Map<String, String> extra, Duration limit, String... argv)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(argv).directory(cwd.toFile());
        pb.environment().putAll(clientEnv());
        pb.environment().putAll(extra);
        // The program itself is found on the PATH it is given, as a shell would.
        if (!argv[0].contains("/")) {
            for (String entry : pb.environment().get("PATH").split(File.pathSeparator)) {
                Path candidate = Path.of(entry.isEmpty() ? "." : entry, argv[0]);
                if (Files.isExecutable(candidate)) {
                    pb.command().set(0, candidate.toString());
                    break;
                }
            }
        }
        Path out = Files.createTempFile(workDir, "client", ".txt");
        pb.redirectErrorStream(true).redirectOutput(out.toFile());
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p = pb.start();
        boolean done = p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
        if (!done) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        String text = Files.readString(out);
        Files.delete(out);
        if (!done) {
            throw new IllegalStateException(String.join(" ", argv) + " did not finish in " + limit + ":\n" + text);
        }
        return new Result(p.exitValue(), text, "");
    }

    /** Executables {@code srun}, {@code sbatch}, ... that run the commands of this build. */
    synchronized Path commandDir() throws IOException {
        if (commandDir == null) {
            Path dir = layout.stateDir().resolve("commands");
            Files.createDirectories(dir);
            for (String name : List.of("srun", "sbatch", "scancel", "scontrol", "squeue")) {
                Path file = dir.resolve(name);
                Files.writeString(
                        file,
                        "#!/bin/sh\nexec '" + java + "' -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp '" + classpath
                                + "' dev.sluice.cli.Main " + name + " \"$@\"\n");
                file.toFile().setExecutable(true, false);
            }
            commandDir = dir;
        }
        return commandDir;
    }

    /**
     * This build's class path as every local user may read it: the jars hard-linked (or copied),
     * class directories copied, into the state directory (the build itself may sit under a home
     * directory others cannot enter).
     */
    synchronized String sharedClasspath() throws IOException {
        if (sharedClasspath == null) {
            Path dir = layout.stateDir().resolve("classpath");
            Files.createDirectories(dir);
            List<String> entries = new ArrayList<>();
            int i = 0;
            for (String entry : classpath.split(File.pathSeparator)) {
                Path source = Path.of(entry);
                Path copy = dir.resolve((i++) + "-" + source.getFileName());
                if (Files.isRegularFile(source)) {
                    try {
                        Files.createLink(copy, source);
                    } catch (IOException | UnsupportedOperationException e) {
                        Files.copy(source, copy);
                    }
                    copy.toFile().setReadable(true, false);
                    entries.add(copy.toString());
                } else if (Files.isDirectory(source)) {
                    try (var tree = Files.walk(source)) {
                        for (Path p : tree.toList()) {
                            Path target = copy.resolve(source.relativize(p).toString());
                            if (Files.isDirectory(p)) {
                                Files.createDirectories(target);
                                target.toFile().setExecutable(true, false);
                            } else {
                                Files.copy(p, target);
                            }
                            target.toFile().setReadable(true, false);
                        }
                    }
                    entries.add(copy.toString());
                } else {
                    entries.add(entry);
                }
            }
            sharedClasspath = String.join(File.pathSeparator, entries);
        }
        return sharedClasspath;
    }

    /** The java launcher of this build. */
    String java() {
        return java;
    }

    /** Stops one node daemon the way systemd does (SIGTERM) and starts it again. */
    void restartNode(int index) throws IOException, InterruptedException {
        stopNode(index);
        startNode(index);
    }

    /** SIGTERM to one node daemon; returns once it has exited. */
    void stopNode(int index) throws InterruptedException {
        Process old = nodes.get(index - 1);
        old.destroy();
        if (!old.waitFor(15, TimeUnit.SECONDS)) {
            old.destroyForcibly();
            old.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** Node daemon {@code index}: on port 0 the first time, then on the port it reported. */
    void startNode(int index) throws IOException {
        String name = LocalClusterLayout.nodeName(index);
        int known = layout.nodePorts().get(index - 1);
        Path ports = layout.portsFile(name);
        if (known == LocalClusterLayout.UNBOUND) {
            Files.deleteIfExists(ports);
        }
        nodes.set(
                index - 1,
                daemon(
                        "dev.sluice.noded.server.NodedMain",
                        name,
                        "-N",
                        name,
                        "--port",
                        Integer.toString(known == LocalClusterLayout.UNBOUND ? 0 : known),
                        "--ports-file",
                        ports.toString()));
    }

    /** The node daemon's process (to see that a job does not depend on it). */
    Process nodeProcess(int index) {
        return nodes.get(index - 1);
    }

    String logs() throws IOException {
        StringBuilder s = new StringBuilder();
        try (var files = Files.list(layout.logDir())) {
            for (Path p : files.sorted().toList()) {
                s.append("==== ").append(p.getFileName()).append('\n').append(Files.readString(p));
            }
        }
        return s.toString();
    }

    @Override
    public void close() throws InterruptedException {
        List<Process> all = new ArrayList<>(nodes);
        all.removeIf(Objects::isNull);
        if (ctld != null) {
            all.add(ctld);
        }
        if (dbd != null) {
            all.add(dbd);
        }
        all.forEach(Process::destroy);
        for (Process p : all) {
            if (!p.waitFor(15, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
        // Jobs outlive their node daemons by design; a failed test must not leave them behind.
        String marker = layout.stateDir().toString();
        ProcessHandle.allProcesses()
                .filter(h -> h.info().commandLine().map(c -> c.contains(marker)).orElse(false))
                .forEach(ProcessHandle::destroyForcibly);
    }
}
