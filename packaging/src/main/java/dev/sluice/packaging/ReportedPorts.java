package dev.sluice.packaging;

import dev.sluice.common.daemon.PortsFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Waiting for a daemon started on port 0 to say which ports it bound ({@code --ports-file}):
 * the local cluster starts each daemon only once the ports it needs to know are known.
 */
final class ReportedPorts {
    private ReportedPorts() {}

    /** A daemon that did not say which ports it bound before the deadline. */
    static final class NotReported extends IOException {
        NotReported(String message) {
            super(message);
        }
    }

    /** Removes what an earlier run reported, so that only this run's report is waited for. */
    static void forget(Path file) throws IOException {
        Files.deleteIfExists(file);
    }

    /**
     * The ports in {@code file} once the daemon has written it.
     *
     * @param deadline {@link System#nanoTime()} after which the daemon is given up on
     * @param log where the daemon's log is, for the message when it does not report
     */
    static Map<String, Integer> await(Path file, long deadline, Path log) throws IOException, InterruptedException {
        while (true) {
            var ports = PortsFile.read(file);
            if (ports.isPresent()) {
                return ports.get();
            }
            if (System.nanoTime() > deadline) {
                throw new NotReported("no ports reported in " + file + " in time; see " + log);
            }
            // A daemon binds within a few seconds of its start; the file appears whole (renamed).
            Thread.sleep(50);
        }
    }
}
