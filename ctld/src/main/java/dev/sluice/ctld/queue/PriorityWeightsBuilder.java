package dev.sluice.ctld.queue;

import java.util.List;

/**
 * {@link PriorityWeights} named field by field: {@code multifactor().age(1000).build()}. What is
 * not set keeps {@link PriorityWeights#BASIC}'s value (weights 0, PriorityMaxAge and
 * PriorityDecayHalfLife 7-0, PriorityCalcPeriod 5 minutes, no calculation clock).
 */
public final class PriorityWeightsBuilder {
    private static final long WEEK = 7 * 86400;

    private boolean multifactor;
    private long age;
    private long fairshare;
    private long jobSize;
    private long partition;
    private long qos;
    private long maxAgeSeconds = WEEK;
    private long decayHalfLifeSeconds = WEEK;
    private boolean favorSmall;
    private long calcPeriodSeconds = PriorityWeights.DEFAULT_CALC_PERIOD;
    private long calcEpoch;
    private List<Long> earlierStarts = List.of();

    private PriorityWeightsBuilder() {}

    /** priority/basic: first come, first served. */
    public static PriorityWeightsBuilder basic() {
        return new PriorityWeightsBuilder();
    }

    /** priority/multifactor when {@code multifactor}, else priority/basic. */
    public static PriorityWeightsBuilder of(boolean multifactor) {
        PriorityWeightsBuilder b = new PriorityWeightsBuilder();
        b.multifactor = multifactor;
        return b;
    }

    /** Every setting of {@code w}, to change some. */
    public static PriorityWeightsBuilder from(PriorityWeights w) {
        return of(w.multifactor())
                .age(w.age())
                .fairshare(w.fairshare())
                .jobSize(w.jobSize())
                .partition(w.partition())
                .qos(w.qos())
                .maxAgeSeconds(w.maxAgeSeconds())
                .decayHalfLifeSeconds(w.decayHalfLifeSeconds())
                .favorSmall(w.favorSmall())
                .calcPeriodSeconds(w.calcPeriodSeconds())
                .calcClock(w.calcEpoch(), w.earlierStarts());
    }

    /** priority/multifactor with every weight 0. */
    public static PriorityWeightsBuilder multifactor() {
        return of(true);
    }

    public PriorityWeightsBuilder age(long weight) {
        this.age = weight;
        return this;
    }

    public PriorityWeightsBuilder fairshare(long weight) {
        this.fairshare = weight;
        return this;
    }

    public PriorityWeightsBuilder jobSize(long weight) {
        this.jobSize = weight;
        return this;
    }

    public PriorityWeightsBuilder partition(long weight) {
        this.partition = weight;
        return this;
    }

    public PriorityWeightsBuilder qos(long weight) {
        this.qos = weight;
        return this;
    }

    public PriorityWeightsBuilder maxAgeSeconds(long seconds) {
        this.maxAgeSeconds = seconds;
        return this;
    }

    public PriorityWeightsBuilder decayHalfLifeSeconds(long seconds) {
        this.decayHalfLifeSeconds = seconds;
        return this;
    }

    public PriorityWeightsBuilder favorSmall(boolean value) {
        this.favorSmall = value;
        return this;
    }

    public PriorityWeightsBuilder calcPeriodSeconds(long seconds) {
        this.calcPeriodSeconds = seconds;
        return this;
    }

    /**
     * The controller's start (epoch seconds; 0: not known) and the earlier starts on the same
     * state, ascending ({@link PriorityWeights}).
     */
    public PriorityWeightsBuilder calcClock(long epoch, List<Long> earlier) {
        this.calcEpoch = epoch;
        this.earlierStarts = List.copyOf(earlier);
        return this;
    }

    public PriorityWeights build() {
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
                calcEpoch,
                earlierStarts);
    }
}
