package dev.sluice.common.slurm;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The flags Slurm adds to a job's base state ({@link JobState}), each with the long name and the
 * compact code squeue {@code -t} accepts ({@code CG}, {@code COMPLETING}). Of these Sluice's jobs
 * carry only COMPLETING (a cancelled job whose processes are still being killed); asking for
 * another is still a valid question, with no job in the answer, as on an idle Slurm.
 */
public enum JobStateFlag {
    COMPLETING("CG"),
    CONFIGURING("CF"),
    RESIZING("RS"),
    RESV_DEL_HOLD("RD"),
    REQUEUED("RQ"),
    REQUEUE_FED("RF"),
    REQUEUE_HOLD("RH"),
    REVOKED("RV"),
    SIGNALING("SI"),
    SPECIAL_EXIT("SE"),
    STAGE_OUT("SO"),
    STOPPED("ST");

    private final String compact;

    JobStateFlag(String compact) {
        this.compact = compact;
    }

    public String compact() {
        return compact;
    }

    /** A flag named by its long name or compact code, in any case. */
    public static Optional<JobStateFlag> parse(String name) {
        String n = name.strip().toUpperCase(Locale.ROOT);
        return Arrays.stream(values())
                .filter(f -> f.name().equals(n) || f.compact.equals(n))
                .findFirst();
    }

    /**
     * Every state name squeue accepts, in the order its error message lists them:
     * {@code PENDING,RUNNING,...,OUT_OF_MEMORY,COMPLETING,...,STOPPED}.
     */
    public static String allStateNames() {
        return Arrays.stream(JobState.values()).map(Enum::name).collect(Collectors.joining(","))
                + ","
                + Arrays.stream(values()).map(Enum::name).collect(Collectors.joining(","));
    }
}
