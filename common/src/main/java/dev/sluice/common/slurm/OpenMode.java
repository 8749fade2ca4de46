package dev.sluice.common.slurm;

import java.util.Optional;

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
        return SlurmWords.read(values(), OpenMode::wireName, text.strip(), SlurmWords.Match.PREFIX)
                .orElseThrow(() -> new IllegalArgumentException("Invalid --open-mode: " + text));
    }

    /**
     * {@code --open-mode} as sbatch and srun take it: a word beginning with {@code a} or {@code t}
     * in either case, whatever follows ({@code --open-mode=t} truncates); empty for any other.
     */
    public static Optional<OpenMode> option(String text) {
        return SlurmWords.read(values(), OpenMode::wireName, text, SlurmWords.Match.INITIAL);
    }
}
