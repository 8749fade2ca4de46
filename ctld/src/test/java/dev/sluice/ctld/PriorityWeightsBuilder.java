package dev.sluice.ctld;

import dev.sluice.ctld.queue.PriorityWeights;
import java.util.List;

/**
 * {@link PriorityWeights} for a test, named field by field: {@code multifactor().age(1000).build()}.
 * What is not set keeps {@link PriorityWeights#BASIC}'s value (weights 0, PriorityMaxAge and
 * PriorityDecayHalfLife 7-0, PriorityCalcPeriod 5 minutes).
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

    private PriorityWeightsBuilder() {}

    /** priority/multifactor with every weight 0. */
    public static PriorityWeightsBuilder multifactor() {
        PriorityWeightsBuilder b = new PriorityWeightsBuilder();
        b.multifactor = true;
        return b;
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

    /** Calculation epoch 0 and no earlier controller starts, as a fresh controller's. */
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
                0,
                List.of());
    }
}
