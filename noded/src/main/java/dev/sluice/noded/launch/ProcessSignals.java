package dev.sluice.noded.launch;

import dev.sluice.noded.spool.ForkLock;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Signals to process groups with kill(1), as the launchers send them. */
final class ProcessSignals {
    private static final Logger log = LoggerFactory.getLogger(ProcessSignals.class);

    private ProcessSignals() {}

    /** {@code signal} (a name or number) to every process of group {@code pgid}; none for pgid ≤ 1. */
    static void group(long pgid, String signal) {
        if (pgid <= 1) {
            return;
        }
        run("kill", "-s", signal, "--", "-" + pgid);
    }

    static void run(String... command) {
        try {
            ForkLock.start(new ProcessBuilder(command)
                            .redirectErrorStream(true)
                            .redirectOutput(ProcessBuilder.Redirect.DISCARD))
                    .waitFor();
        } catch (IOException e) {
            log.warn("{} failed: {}", String.join(" ", command), e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
