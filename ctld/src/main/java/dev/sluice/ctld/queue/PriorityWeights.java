package dev.sluice.ctld.queue;

import java.util.List;

/**
 * {@code priority/multifactor} settings from slurm.conf ({@code PriorityWeight*},
 * {@code PriorityMaxAge}, {@code PriorityDecayHalfLife}, {@code PriorityFavorSmall},
 * {@code PriorityCalcPeriod}); with {@code multifactor} false the queue is Slurm's
 * {@code priority/basic}: first come, first served.
 *
 * <p>{@code calcEpoch} is when the controller started (epoch seconds; 0: not known, factors are
 * taken at the moment asked). Slurm computes a job's factors when it is submitted and again
 * every PriorityCalcPeriod from the controller's start, not when sprio or the scheduler asks:
 * the age a job shows is its age at the last of those times. {@code earlierStarts} are the
 * starts of the controllers before this one on the same state (ascending, each before {@code
 * calcEpoch}): the calculations they made decide what the jobs that ran then were charged, as
 * slurmctld's saved usage does across its restarts.
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
        long calcEpoch,
        List<Long> earlierStarts) {

    public PriorityWeights {
        earlierStarts = List.copyOf(earlierStarts);
    }

    /** Slurm's default PriorityCalcPeriod: 5 minutes. */
    public static final long DEFAULT_CALC_PERIOD = 300;

    /** Slurm's defaults: priority/basic; PriorityMaxAge 7-0; PriorityDecayHalfLife 7-0. */
    public static final PriorityWeights BASIC = PriorityWeightsBuilder.basic().build();

    /** These settings on a controller started at {@code epoch}. */
    public PriorityWeights withCalcEpoch(long epoch) {
        return withCalcEpoch(epoch, earlierStarts);
    }

    /** These settings on a controller started at {@code epoch}, after controllers started at {@code earlier}. */
    public PriorityWeights withCalcEpoch(long epoch, List<Long> earlier) {
        return PriorityWeightsBuilder.from(this).calcClock(epoch, earlier).build();
    }

    /**
     * Up to when a job that started at {@code start} (and ended at {@code end}; 0 while it runs)
     * has been charged, as of {@code now}: {@code start} when it has not been. Slurm charges a
     * job at each calculation that finds it running, for the time since its start or the
     * previous calculation (the one at a controller's start only begins the count), so what a
     * job ran after the last calculation it saw is never charged (observed on Slurm 22.05,
     * compat 239). Without a calculation clock (no start known), everything up to now is.
     */
    public long chargedUntil(long start, long end, long now) {
        long lastRunning = end > 0 ? Math.min(now, end - 1) : now;
        if (calcEpoch <= 0 || calcPeriodSeconds <= 0) {
            return Math.max(start, end > 0 ? Math.min(now, end) : now);
        }
        return Math.max(start, lastCalculation(lastRunning));
    }

    /**
     * The last calculation at or before {@code t}, on the clock of the controller that ran then
     * (this one or an earlier start's); {@code t} itself before any start known (state from
     * before starts were kept: charged as it ran).
     */
    long lastCalculation(long t) {
        long from = calcEpoch;
        if (t < calcEpoch) {
            from = -1;
            for (long s : earlierStarts) {
                if (s <= t) {
                    from = s;
                }
            }
            if (from < 0) {
                return t;
            }
        }
        return from + (t - from) / calcPeriodSeconds * calcPeriodSeconds;
    }

    /**
     * When the last calculation pass at or before {@code now} ran: {@code now} itself without a
     * calculation clock (everything counts as computed).
     */
    public long lastPass(long now) {
        if (calcEpoch <= 0 || calcPeriodSeconds <= 0) {
            return now;
        }
        return lastCalculation(now);
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
