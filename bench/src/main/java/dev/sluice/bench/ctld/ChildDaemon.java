package dev.sluice.bench.ctld;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
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

    public static ChildDaemon start(String name, Path log, List<String> command) throws IOException {
        Files.createDirectories(log.getParent());
        Process p = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        return new ChildDaemon(name, p, log);
    }

    public static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
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

    /** User plus system CPU of the whole process (every thread), from /proc/PID/stat. */
    public double cpuMillis() throws IOException {
        return cpuMillis(process.toHandle());
    }

    public static double selfCpuMillis() throws IOException {
        return cpuMillis(ProcessHandle.current());
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
