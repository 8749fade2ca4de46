package dev.sluice.ctld.queue;

/**
 * {@code priority/multifactor} settings from slurm.conf ({@code PriorityWeight*},
 * {@code PriorityMaxAge}, {@code PriorityDecayHalfLife}, {@code PriorityFavorSmall},
 * {@code PriorityCalcPeriod}); with {@code multifactor} false the queue is Slurm's
 * {@code priority/basic}: first come, first served.
 *
 * <p>{@code calcEpoch} is when the controller started (epoch seconds; 0: not known, factors are
 * taken at the moment asked). Slurm computes a job's factors when it is submitted and again
 * every PriorityCalcPeriod from the controller's start, not when sprio or the scheduler asks:
 * the age a job shows is its age at the last of those times.
 */
public record PriorityWeights(
        boolean multifactor,
        long age,
        long fairshare,
        long jobSize,
        long partition,
        long qos,
        long maxAgeSeconds,
        long decayHalfLifeSeconds,
        boolean favorSmall,
        long calcPeriodSeconds,
        long calcEpoch) {

    /** Slurm's default PriorityCalcPeriod: 5 minutes. */
    public static final long DEFAULT_CALC_PERIOD = 300;

    /** Slurm's defaults: priority/basic; PriorityMaxAge 7-0; PriorityDecayHalfLife 7-0. */
    public static final PriorityWeights BASIC = new PriorityWeights(
            false, 0, 0, 0, 0, 0, 7 * 86400, 7 * 86400, false, PriorityWeights.DEFAULT_CALC_PERIOD, 0);

    /** These settings on a controller started at {@code epoch}. */
    public PriorityWeights withCalcEpoch(long epoch) {
        return new PriorityWeights(
                multifactor,
                age,
                fairshare,
                jobSize,
                partition,
                qos,
                maxAgeSeconds,
                decayHalfLifeSeconds,
                favorSmall,
                calcPeriodSeconds,
                epoch);
    }

    /**
     * Up to when usage has been charged, as of {@code now}: Slurm adds the jobs' usage to their
     * associations at the same calculations (the one at the start only begins the count), so
     * what ran since the last one shows nowhere yet.
     */
    public long chargedUntil(long now) {
        if (calcEpoch <= 0 || calcPeriodSeconds <= 0 || now < calcEpoch) {
            return now;
        }
        return calcEpoch + (now - calcEpoch) / calcPeriodSeconds * calcPeriodSeconds;
    }

    /**
     * When the factors of a job submitted at {@code submitTime} were last computed, as of
     * {@code now}: the latest of its submission and the last period's end since the start.
     */
    public long calculatedAt(long submitTime, long now) {
        if (calcEpoch <= 0 || calcPeriodSeconds <= 0 || now < calcEpoch) {
            return now;
        }
        long lastPass = calcEpoch + (now - calcEpoch) / calcPeriodSeconds * calcPeriodSeconds;
        return Math.min(now, Math.max(submitTime, lastPass));
    }
}
