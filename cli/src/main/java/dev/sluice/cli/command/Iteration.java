package dev.sluice.cli.command;

import java.io.PrintStream;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.function.IntSupplier;

/**
 * {@code squeue -i} and {@code sinfo -i}: the report again and again, each followed by an empty
 * line, until Ctrl-C. Standalone, Ctrl-C kills the JVM as SIGINT kills Slurm's commands (the
 * shell sees 130); inside sluice-agent it interrupts the command's thread, which ends the wait
 * here with the same status. The wait goes through a {@link Sleeper} so a test can drive it.
 */
public final class Iteration {
    /** The exit status of a process killed by SIGINT, as the shell reports it. */
    public static final int INTERRUPTED = 130;

    /** Waits between reports; real time in production, a script in tests. */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(Duration period) throws InterruptedException;
    }

    public static final Sleeper REAL = Thread::sleep;

    private Iteration() {}

    /**
     * {@code -i}'s seconds as Slurm reads them: the leading digits ({@code 1x} is 1); empty
     * unless positive, which the caller reports in its command's words.
     */
    public static OptionalLong seconds(String value) {
        int i = 0;
        while (i < value.length() && Character.isDigit(value.charAt(i)) && i < 9) {
            i++;
        }
        long n = i == 0 ? 0 : Long.parseLong(value.substring(0, i));
        return n > 0 ? OptionalLong.of(n) : OptionalLong.empty();
    }

    /**
     * Prints {@code report} every {@code period} until interrupted. Slurm keeps iterating after
     * a failed report (the controller may come back), and so does this.
     */
    public static int repeat(IntSupplier report, Duration period, Sleeper sleeper, PrintStream out) {
        while (true) {
            report.getAsInt();
            out.println();
            // Each report must reach the terminal (or the agent's caller) before the wait.
            out.flush();
            try {
                sleeper.sleep(period);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return INTERRUPTED;
            }
            if (Thread.currentThread().isInterrupted()) {
                return INTERRUPTED;
            }
        }
    }
}
