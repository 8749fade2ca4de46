package dev.sluice.bench.daemon;

import dev.sluice.common.daemon.PortsFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** A daemon the benchmark started, its log in a file, and its CPU time as /proc counts it. */
public final class ChildDaemon {
    /** How long sluice-dbd must use no CPU to count as done with the round's records. */
    private static final Duration IDLE = Duration.ofMillis(1500);

    private static final Duration IDLE_LIMIT = Duration.ofSeconds(120);

    private final String name;
    private final Process process;
    private final Path log;

    private ChildDaemon(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /** How long a daemon may take to start and report its ports. */
    public static final Duration START_TIMEOUT = Duration.ofSeconds(120);

    public static ChildDaemon start(String name, Path log, List<String> command) throws IOException {
        Files.createDirectories(log.getParent());
        Process p = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        return new ChildDaemon(name, p, log);
    }

    public long pid() {
        return process.pid();
    }

    public Path log() {
        return log;
    }

    public void checkAlive() throws IOException {
        if (!process.isAlive()) {
            throw new IOException(name + " exited with status " + process.exitValue() + "; see " + log);
        }
    }

    /** The ports this daemon, started on port 0, reported in its ports file. */
    public Map<String, Integer> awaitPorts(Path file) throws Exception {
        return await(() -> PortsFile.read(file), "no ports reported in " + file + "; see " + log);
    }

    /**
     * Polls {@code poll} until it gives a value, while this daemon lives; {@code failure} is the
     * message once {@link #START_TIMEOUT} has passed.
     */
    public <T> T await(Callable<Optional<T>> poll, String failure) throws Exception {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (true) {
            Optional<T> got = poll.call();
            if (got.isPresent()) {
                return got.get();
            }
            checkAlive();
            if (System.nanoTime() > deadline) {
                throw new IOException(failure);
            }
            // A child process's file, not this process's threads: there is nothing to wait on.
            Thread.sleep(100);
        }
    }

    /** Runs {@code jcmd PID command...} on this daemon (a JFR recording's start and stop). */
    public void jcmd(String... command) throws IOException, InterruptedException {
        List<String> c = new ArrayList<>(
                List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(), Long.toString(pid())));
        c.addAll(List.of(command));
        Process p = new ProcessBuilder(c).redirectErrorStream(true).start();
        String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IOException("jcmd " + String.join(" ", command) + " failed: " + said.strip());
        }
    }

    /** The machine's load averages (1, 5, 15 minutes), printed beside each round; "?" without /proc. */
    public static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException e) {
            return "?";
        }
    }

    /** User plus system CPU of the whole process (every thread), from /proc/PID/stat. */
    public double cpuMillis() throws IOException {
        return cpuMillis(process.toHandle());
    }

    public static double selfCpuMillis() throws IOException {
        return cpuMillis(ProcessHandle.current());
    }

    /** User plus system CPU of another process of this machine (a database server). */
    public static double cpuMillisOf(long pid) throws IOException {
        return cpuMillis(ProcessHandle.of(pid).orElseThrow(() -> new IOException("no process " + pid)));
    }

    private static double cpuMillis(ProcessHandle p) throws IOException {
        return p.info()
                        .totalCpuDuration()
                        .orElseThrow(() -> new IOException("no CPU time for pid " + p.pid()))
                        .toNanos()
                / 1e6;
    }

    /** The CPU time once the process has used none for {@link #IDLE} (at most {@link #IDLE_LIMIT}). */
    public double cpuMillisWhenIdle() throws IOException, InterruptedException {
        long limit = System.nanoTime() + IDLE_LIMIT.toNanos();
        double last = cpuMillis();
        while (System.nanoTime() < limit) {
            // A benchmark's measurement window, not synchronisation: /proc has no "idle" event.
            Thread.sleep(IDLE.toMillis());
            double now = cpuMillis();
            // The clock ticks of /proc are 10 ms; a timer or two may still tick while idle.
            if (now - last <= 20) {
                return now;
            }
            last = now;
        }
        return last;
    }

    public void stop() {
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    public static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
