package dev.sluice.cli.view;

import dev.sluice.protocol.v1.JobState;
import java.util.Locale;
import java.util.Optional;

/**
 * Job state names as Slurm prints them: long ({@code PENDING}, squeue {@code %T}, scontrol
 * {@code JobState=}) and compact ({@code PD}, squeue {@code %t}), and parsing of the names
 * users give to {@code squeue -t} and {@code scancel -t}.
 */
public final class JobStates {
    private JobStates() {}

    public static String longName(JobState state) {
        return switch (state) {
            case PENDING -> "PENDING";
            case RUNNING -> "RUNNING";
            case SUSPENDED -> "SUSPENDED";
            case COMPLETED -> "COMPLETED";
            case CANCELLED -> "CANCELLED";
            case FAILED -> "FAILED";
            case TIMEOUT -> "TIMEOUT";
            case NODE_FAIL -> "NODE_FAIL";
            case PREEMPTED -> "PREEMPTED";
            case BOOT_FAIL -> "BOOT_FAIL";
            case DEADLINE -> "DEADLINE";
            case OUT_OF_MEMORY -> "OUT_OF_MEMORY";
            case JOB_STATE_UNSPECIFIED, UNRECOGNIZED -> "UNKNOWN";
        };
    }

    public static String compactName(JobState state) {
        return switch (state) {
            case PENDING -> "PD";
            case RUNNING -> "R";
            case SUSPENDED -> "S";
            case COMPLETED -> "CD";
            case CANCELLED -> "CA";
            case FAILED -> "F";
            case TIMEOUT -> "TO";
            case NODE_FAIL -> "NF";
            case PREEMPTED -> "PR";
            case BOOT_FAIL -> "BF";
            case DEADLINE -> "DL";
            case OUT_OF_MEMORY -> "OOM";
            case JOB_STATE_UNSPECIFIED, UNRECOGNIZED -> "?";
        };
    }

    /** Pending, running and suspended jobs: what squeue lists when no state is asked for. */
    public static boolean isActive(JobState state) {
        return state == JobState.PENDING || state == JobState.RUNNING || state == JobState.SUSPENDED;
    }

    /** A state named by its long or compact name, in any case ({@code pd}, {@code Running}). */
    public static Optional<JobState> parse(String name) {
        String n = name.trim().toUpperCase(Locale.ROOT);
        for (JobState s : JobState.values()) {
            if (s == JobState.UNRECOGNIZED || s == JobState.JOB_STATE_UNSPECIFIED) {
                continue;
            }
            if (longName(s).equals(n) || compactName(s).equals(n)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }
}
