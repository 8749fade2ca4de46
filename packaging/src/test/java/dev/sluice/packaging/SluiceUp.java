package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code ./sluice up ARGS} as a user runs it: LocalCluster's main in its own JVM on this build's
 * class path, its output in {@code up.out} of {@code home}, up once it says {@code Sluice is up};
 * stopped with SIGTERM, as Ctrl-C stops it.
 */
final class SluiceUp implements AutoCloseable {
    private static final String JAVA =
            Path.of(System.getProperty("java.home"), "bin", "java").toString();

    private final Path home;
    private final Path stateDir;
    private final Process up;

    private SluiceUp(Path home, Path stateDir, Process up) {
        this.home = home;
        this.stateDir = stateDir;
        this.up = up;
    }

    /**
     * Started, not awaited: {@code args} after {@code up}, then {@code --state-dir stateDir};
     * {@code jvmOptions} before the class (the bin directory, say). It runs in the test's working
     * directory, as the tests have always started it.
     */
    static SluiceUp start(Path home, Path stateDir, List<String> jvmOptions, List<String> args) throws IOException {
        Files.createDirectories(home);
        List<String> argv = new ArrayList<>(List.of(JAVA, "-Xmx128m"));
        argv.addAll(jvmOptions);
        argv.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.sluice.packaging.LocalCluster", "up"));
        argv.addAll(args);
        argv.addAll(List.of("--state-dir", stateDir.toString()));
        Process up = new ProcessBuilder(argv)
                .redirectErrorStream(true)
                .redirectOutput(home.resolve("up.out").toFile())
                .start();
        return new SluiceUp(home, stateDir, up);
    }

    /** Returns once it says it is up; fails with what it printed if it stopped instead. */
    SluiceUp awaitUp() throws IOException {
        Path out = home.resolve("up.out");
        await().atMost(Duration.ofSeconds(180))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> Files.readString(out).contains("Sluice is up") || !up.isAlive());
        assertThat(Files.readString(out)).contains("Sluice is up");
        return this;
    }

    Path stateDir() {
        return stateDir;
    }

    Process process() {
        return up;
    }

    /**
     * SIGTERM, as Ctrl-C: the launcher stops its daemons. Jobs outlive their node daemons by
     * design, so what still runs from the state directory (job scripts, and what they started)
     * is killed after.
     */
    @Override
    public void close() throws InterruptedException {
        up.destroy();
        if (!up.waitFor(60, TimeUnit.SECONDS)) {
            up.descendants().forEach(ProcessHandle::destroyForcibly);
            up.destroyForcibly();
        }
        String marker = stateDir.toString();
        ProcessHandle.allProcesses()
                .filter(h -> h.info().commandLine().map(c -> c.contains(marker)).orElse(false))
                .toList()
                .forEach(h -> {
                    h.descendants().forEach(ProcessHandle::destroyForcibly);
                    h.destroyForcibly();
                });
    }
}
