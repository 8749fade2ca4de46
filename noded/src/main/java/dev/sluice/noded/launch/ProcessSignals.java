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

    /**
     * SIGCONT then SIGTERM to group {@code pgid} from one shell, back to back as slurmstepd sends
     * them: a job's shell then finds both pending at once and runs its traps in signal order
     * (TERM's before CONT's, compat 242), where two kill(1) processes apart could let a trap run
     * between them. None for pgid ≤ 1.
     */
    static void groupContThenTerm(long pgid) {
        if (pgid <= 1) {
            return;
        }
        run("sh", "-c", "kill -s CONT -- \"-$1\"; kill -s TERM -- \"-$1\"", "sh", Long.toString(pgid));
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
