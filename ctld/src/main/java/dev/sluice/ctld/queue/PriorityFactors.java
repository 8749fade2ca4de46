package dev.sluice.ctld.queue;

/**
 * One pending job's {@code priority/multifactor} factors, each in [0, 1] as Slurm normalizes
 * them, and the priority they add up to: the weighted sum, truncated, less the job's nice value
 * (at least 1), or the administrator's priority when one was set; {@code sum} is that before
 * truncation (sprio's normalized priority is it over 2^32 - 1).
 */
public record PriorityFactors(
        int jobId,
        double age,
        double fairshare,
        double jobSize,
        double partition,
        double qos,
        int nice,
        long priority,
        double sum) {}
