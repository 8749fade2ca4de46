package dev.sluice.common.slurm;

import java.util.Locale;
import java.util.Optional;

/**
 * Slurm's job states (base states only; flags such as COMPLETING are derived), each with the
 * long name squeue {@code %T} and {@code scontrol show job} print ({@link #name()}) and the
 * compact one squeue {@code %t} prints.
 */
public enum JobState {
    PENDING("PD"),
    RUNNING("R"),
    SUSPENDED("S"),
    COMPLETED("CD"),
    CANCELLED("CA"),
    FAILED("F"),
    TIMEOUT("TO"),
    NODE_FAIL("NF"),
    PREEMPTED("PR"),
    BOOT_FAIL("BF"),
    DEADLINE("DL"),
    OUT_OF_MEMORY("OOM");

    private final String compact;

    JobState(String compact) {
        this.compact = compact;
    }

    /** The two-letter form {@code squeue %t} prints. */
    public String compact() {
        return compact;
    }

    public boolean isFinished() {
        return this != PENDING && this != RUNNING && this != SUSPENDED;
    }

    /** Pending, running or suspended: what squeue lists when no state is asked for. */
    public boolean isActive() {
        return !isFinished();
    }

    public boolean holdsResources() {
        return this == RUNNING || this == SUSPENDED;
    }

    /**
     * A state as users name it to {@code squeue -t}, {@code scancel -t} or {@code sacct -s}: its
     * long or compact name, in any case ({@code pd}, {@code Running}).
     */
    public static Optional<JobState> parse(String name) {
        String n = name.strip().toUpperCase(Locale.ROOT);
        for (JobState s : values()) {
            if (s.name().equals(n) || s.compact.equals(n)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }
}
