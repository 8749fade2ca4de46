package dev.sluice.packaging;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One daemon process of the local cluster, restarted when it dies (as systemd's
 * {@code Restart=on-failure} would), with its log appended to a file and its pid written to
 * {@code run/NAME.pid} so that a developer can {@code kill -9} it to try recovery.
 */
final class Supervised {
    private static final Logger log = LoggerFactory.getLogger(Supervised.class);

    private final String name;
    private volatile List<String> command;
    private final Path logFile;
    private final Path pidFile;
    private volatile Process process;
    private volatile boolean stopping;

    Supervised(String name, List<String> command, Path logFile, Path pidFile) {
        this.name = name;
        this.command = List.copyOf(command);
        this.logFile = logFile;
        this.pidFile = pidFile;
    }

    /**
     * The command the next restart runs: a daemon first started on port 0 comes back on the
     * ports it reported, which the configuration and everyone else now know.
     */
    void restartWith(List<String> restart) {
        this.command = List.copyOf(restart);
    }

    synchronized void start() throws IOException {
        Files.createDirectories(logFile.getParent());
        Files.createDirectories(pidFile.getParent());
        process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        dev.sluice.common.files.OwnerOnly.privateFile(logFile).toFile()))
                .start();
        Files.writeString(pidFile, process.pid() + "\n");
        Process started = process;
        started.onExit().thenAccept(p -> exited(started));
    }

    private void exited(Process p) {
        if (stopping) {
            return;
        }
        System.out.println(
                "sluice: " + name + " exited with status " + p.exitValue() + "; restarting it (log: " + logFile + ")");
        try {
            Thread.sleep(1000);
            synchronized (this) {
                if (!stopping) {
                    start();
                }
            }
        } catch (IOException e) {
            log.error("cannot restart {}: {}", name, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    void stop() {
        stopping = true;
        Process p = process;
        if (p != null && p.isAlive()) {
            p.destroy();
        }
    }

    void awaitStopped() {
        Process p = process;
        if (p == null) {
            return;
        }
        try {
            if (!p.waitFor(15, java.util.concurrent.TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            Files.deleteIfExists(pidFile);
        } catch (IOException ignored) {
            // A stale pid file is harmless; the next start overwrites it.
        }
    }
}
