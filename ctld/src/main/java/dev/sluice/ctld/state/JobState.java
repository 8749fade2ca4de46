package dev.sluice.ctld.state;

/** Slurm's job states (base states only; flags such as COMPLETING are derived). */
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

    public boolean holdsResources() {
        return this == RUNNING || this == SUSPENDED;
    }
}
