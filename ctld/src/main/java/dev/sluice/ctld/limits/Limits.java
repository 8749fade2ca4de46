package dev.sluice.ctld.limits;

import java.util.Locale;

/**
 * The limits the controller enforces, on an association or a QOS. {@link #NONE} (-1) in a field
 * means "not set": an association then inherits its parent account's value, a QOS has no limit.
 * On a QOS, {@code maxJobs}/{@code maxSubmitJobs} are its per-user limits (MaxJobsPerUser,
 * MaxSubmitJobsPerUser).
 */
public record Limits(long maxJobs, long maxSubmitJobs, long maxWallMinutes, long grpCpus, long maxCpusPerJob) {
    public static final long NONE = -1;
    public static final Limits UNSET = new Limits(NONE, NONE, NONE, NONE, NONE);

    /** This record's values, with the unset ones taken from {@code parent}. */
    public Limits orElse(Limits parent) {
        return new Limits(
                pick(maxJobs, parent.maxJobs),
                pick(maxSubmitJobs, parent.maxSubmitJobs),
                pick(maxWallMinutes, parent.maxWallMinutes),
                pick(grpCpus, parent.grpCpus),
                pick(maxCpusPerJob, parent.maxCpusPerJob));
    }

    private static long pick(long own, long inherited) {
        return own != NONE ? own : inherited;
    }

    /**
     * The {@code cpu} count of a Slurm TRES string ({@code cpu=4,mem=1G,gres/gpu=2}), or
     * {@link #NONE} when it names no cpu limit. Other TRES are not enforced yet.
     *
     * @throws IllegalArgumentException for a cpu count that is not a number
     */
    public static long cpus(String tres) {
        if (tres == null || tres.isBlank()) {
            return NONE;
        }
        for (String part : tres.split(",")) {
            int eq = part.indexOf('=');
            if (eq > 0 && part.substring(0, eq).strip().toLowerCase(Locale.ROOT).equals("cpu")) {
                long n = Long.parseLong(part.substring(eq + 1).strip());
                return n < 0 ? NONE : n;
            }
        }
        return NONE;
    }
}
