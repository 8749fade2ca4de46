package dev.sluice.ctld.queue;

/**
 * {@code priority/multifactor} settings from slurm.conf ({@code PriorityWeight*},
 * {@code PriorityMaxAge}, {@code PriorityDecayHalfLife}, {@code PriorityFavorSmall}); with
 * {@code multifactor} false the queue is Slurm's {@code priority/basic}: first come, first served.
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
        boolean favorSmall) {

    /** Slurm's defaults: priority/basic; PriorityMaxAge 7-0; PriorityDecayHalfLife 7-0. */
    public static final PriorityWeights BASIC = new PriorityWeights(false, 0, 0, 0, 0, 0, 7 * 86400, 7 * 86400, false);
}
