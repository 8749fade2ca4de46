package dev.sluice.ctld.limits;

import static java.util.Objects.requireNonNull;

/**
 * The limits the controller enforces, on an association or a QOS. {@link #NONE} (-1) in a field
 * means "not set": an association then inherits its parent account's value (per-job and
 * per-user limits only; Grp limits are the level's own), a QOS has no limit. On a QOS,
 * {@code maxJobs}/{@code maxSubmitJobs} are its per-user limits (MaxJobsPerUser,
 * MaxSubmitJobsPerUser). {@code maxTresPerNode} is an association's MaxTRESPerNode, inherited like
 * MaxTRES; a QOS keeps its own in {@link Qos#perNode()}, so here it is {@link TresLimits#NONE}.
 */
public record Limits(
        long maxJobs,
        long maxSubmitJobs,
        long maxWallMinutes,
        TresLimits grpTres,
        TresLimits maxTresPerJob,
        long grpJobs,
        long grpSubmitJobs,
        TresLimits maxTresPerNode) {
    public static final long NONE = -1;
    public static final Limits UNSET =
            new Limits(NONE, NONE, NONE, TresLimits.NONE, TresLimits.NONE, NONE, NONE, TresLimits.NONE);

    public Limits {
        requireNonNull(grpTres, "grpTres is null");
        requireNonNull(maxTresPerJob, "maxTresPerJob is null");
        requireNonNull(maxTresPerNode, "maxTresPerNode is null");
    }

    /** Limits to set one by one; what is not set stays {@link #NONE}. */
    public static Builder builder() {
        return new Builder();
    }

    /** This record's values, with the unset ones taken from {@code parent}. */
    public Limits orElse(Limits parent) {
        return new Limits(
                pick(maxJobs, parent.maxJobs),
                pick(maxSubmitJobs, parent.maxSubmitJobs),
                pick(maxWallMinutes, parent.maxWallMinutes),
                grpTres.orElse(parent.grpTres),
                maxTresPerJob.orElse(parent.maxTresPerJob),
                pick(grpJobs, parent.grpJobs),
                pick(grpSubmitJobs, parent.grpSubmitJobs),
                maxTresPerNode.orElse(parent.maxTresPerNode));
    }

    /** The same limits with the Grp ones replaced by {@code own}'s (they are never inherited). */
    public Limits withGrpOf(Limits own) {
        return new Limits(
                maxJobs,
                maxSubmitJobs,
                maxWallMinutes,
                own.grpTres,
                maxTresPerJob,
                own.grpJobs,
                own.grpSubmitJobs,
                maxTresPerNode);
    }

    private static long pick(long own, long inherited) {
        return own != NONE ? own : inherited;
    }

    /**
     * The {@code cpu} count of a Slurm TRES string ({@code cpu=4,mem=1G,gres/gpu=2}), or
     * {@link #NONE} when it names no cpu limit.
     *
     * @throws IllegalArgumentException for a count that is not a number
     */
    public static long cpus(String tres) {
        return TresLimits.parse(tres).get("cpu");
    }

    /** Collects limits; each one not set stays unset ({@link #NONE}). */
    public static final class Builder {
        private long maxJobs = NONE;
        private long maxSubmitJobs = NONE;
        private long maxWallMinutes = NONE;
        private TresLimits grpTres = TresLimits.NONE;
        private TresLimits maxTresPerJob = TresLimits.NONE;
        private long grpJobs = NONE;
        private long grpSubmitJobs = NONE;
        private TresLimits maxTresPerNode = TresLimits.NONE;

        private Builder() {}

        public Builder maxJobs(long value) {
            this.maxJobs = value;
            return this;
        }

        public Builder maxSubmitJobs(long value) {
            this.maxSubmitJobs = value;
            return this;
        }

        public Builder maxWallMinutes(long value) {
            this.maxWallMinutes = value;
            return this;
        }

        public Builder grpTres(TresLimits value) {
            this.grpTres = value;
            return this;
        }

        /** {@code GrpTRES=cpu=N}. */
        public Builder grpCpus(long cpus) {
            return grpTres(cpuCap(cpus));
        }

        public Builder maxTresPerJob(TresLimits value) {
            this.maxTresPerJob = value;
            return this;
        }

        /** {@code MaxTRES=cpu=N}. */
        public Builder maxCpusPerJob(long cpus) {
            return maxTresPerJob(cpuCap(cpus));
        }

        public Builder grpJobs(long value) {
            this.grpJobs = value;
            return this;
        }

        public Builder grpSubmitJobs(long value) {
            this.grpSubmitJobs = value;
            return this;
        }

        /** {@code MaxTRESPerNode=} (an association's). */
        public Builder maxTresPerNode(TresLimits value) {
            this.maxTresPerNode = value;
            return this;
        }

        public Limits build() {
            return new Limits(
                    maxJobs,
                    maxSubmitJobs,
                    maxWallMinutes,
                    grpTres,
                    maxTresPerJob,
                    grpJobs,
                    grpSubmitJobs,
                    maxTresPerNode);
        }

        private static TresLimits cpuCap(long cpus) {
            return cpus == NONE ? TresLimits.NONE : new TresLimits(java.util.Map.of("cpu", cpus));
        }
    }
}
