package dev.sluice.cli.command.submit;

import dev.sluice.cli.command.scancel.Signals;
import dev.sluice.protocol.v1.JobSpec;
import java.util.Optional;

/**
 * {@code --signal=[{R|B}:]<sig_num>[@sig_time]} of sbatch, srun and salloc: a signal name or
 * number, {@code sig_time} seconds (default 60, at most 65535) before the time limit. Anything
 * else is Slurm's {@code Invalid --signal specification} (exit 255 in Slurm 22.05's sbatch).
 * {@code R:} (may overlap a reservation's MaxStartDelay) changes nothing: Sluice has no
 * reservations.
 */
public final class WarnSignalOption {
    /** Slurm's default sig_time. */
    static final int DEFAULT_SECONDS = 60;

    private static final int MAX_SECONDS = 0xffff;

    private WarnSignalOption() {}

    public record Spec(int signal, int seconds, boolean batchOnly) {
        public void applyTo(JobSpec.Builder spec) {
            spec.setWarnSignal(signal).setWarnSeconds(seconds).setWarnBatchOnly(batchOnly);
        }
    }

    public static Optional<Spec> parse(String text) {
        String t = text.strip();
        boolean batchOnly = false;
        int colon = t.indexOf(':');
        if (colon >= 0) {
            String flags = t.substring(0, colon);
            if (flags.isEmpty() || !flags.chars().allMatch(c -> c == 'B' || c == 'R' || c == 'b' || c == 'r')) {
                return Optional.empty();
            }
            batchOnly = flags.chars().anyMatch(c -> c == 'B' || c == 'b');
            t = t.substring(colon + 1);
        }
        int seconds = DEFAULT_SECONDS;
        int at = t.indexOf('@');
        if (at >= 0) {
            String time = t.substring(at + 1);
            if (time.isEmpty() || time.length() > 5 || !time.chars().allMatch(Character::isDigit)) {
                return Optional.empty();
            }
            seconds = Integer.parseInt(time);
            if (seconds > MAX_SECONDS) {
                return Optional.empty();
            }
            t = t.substring(0, at);
        }
        Optional<Integer> signal = t.isEmpty() ? Optional.empty() : Signals.parse(t);
        boolean onlyBatch = batchOnly;
        int secs = seconds;
        return signal.map(s -> new Spec(s, secs, onlyBatch));
    }
}
