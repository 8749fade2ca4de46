package dev.sluice.common.slurm;

import java.util.Locale;

/**
 * How a job's output and error files are opened ({@code --open-mode}, slurm.conf's
 * {@code JobFileAppend}): Slurm shows it as {@code OpenMode=APPEND} or {@code TRUNCATE} only when
 * the job named one.
 */
public enum OpenMode {
    /** Not named: the cluster's default (truncate unless {@code JobFileAppend=1}). */
    NOT_GIVEN(""),
    APPEND("append"),
    TRUNCATE("truncate");

    private final String wireName;

    OpenMode(String wireName) {
        this.wireName = wireName;
    }

    /** The word the submission carries: {@code append}, {@code truncate}, empty when not given. */
    public String wireName() {
        return wireName;
    }

    /**
     * {@code --open-mode} as sbatch takes it: any prefix of {@code append} or {@code truncate},
     * either case.
     *
     * @throws IllegalArgumentException for any other word
     */
    public static OpenMode parse(String text) {
        if (text == null || text.isEmpty()) {
            return NOT_GIVEN;
        }
        String t = text.strip().toLowerCase(Locale.ROOT);
        if (!t.isEmpty() && "append".startsWith(t)) {
            return APPEND;
        }
        if (!t.isEmpty() && "truncate".startsWith(t)) {
            return TRUNCATE;
        }
        throw new IllegalArgumentException("Invalid --open-mode: " + text);
    }
}
