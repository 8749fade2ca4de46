package dev.sluice.ctld.sched;

import static java.util.Objects.requireNonNull;

import dev.sluice.ctld.queue.PriorityWeights;
import dev.sluice.ctld.queue.QosPriorities;
import java.util.List;

/**
 * How the scheduler works: {@code SchedulerType} (backfill or builtin), the backfill reservation
 * depth ({@code bf_max_job_test}: 1 behaves as EASY, larger as conservative backfill) and window
 * ({@code bf_window}), the priority plugin and its weights, the QOS priorities its QOS factor
 * reads, the allocator's defaults and who may preempt whom ({@link PreemptPolicy}).
 */
public record SchedulerConfig(
        boolean backfill,
        int reservationDepth,
        long windowSeconds,
        PriorityWeights priority,
        Scheduler.SelectDefaults select,
        QosPriorities qos,
        PreemptPolicy preempt,
        boolean prologWaited) {

    /** Slurm's defaults: sched/backfill, bf_max_job_test=500, bf_window=1 day, priority/basic. */
    public static SchedulerConfig defaults(Scheduler.SelectDefaults select) {
        return builder(select).build();
    }

    /**
     * Slurm's defaults to change from: sched/backfill, bf_max_job_test=500, bf_window=1 day,
     * priority/basic, only the default QOS known, preempt/none.
     */
    public static Builder builder(Scheduler.SelectDefaults select) {
        return new Builder(select);
    }

    public SchedulerConfig {
        requireNonNull(priority, "priority is null");
        requireNonNull(select, "select is null");
        requireNonNull(qos, "qos is null");
        requireNonNull(preempt, "preempt is null");
        if (reservationDepth < 0) {
            throw new IllegalArgumentException("reservationDepth must not be negative");
        }
    }

    /** The same settings, the gang scheduler's turns counted from {@code epoch} (the controller's start). */
    public SchedulerConfig turnsFrom(long epoch) {
        return new SchedulerConfig(
                backfill,
                reservationDepth,
                windowSeconds,
                priority,
                select,
                qos,
                preempt.startingAt(epoch),
                prologWaited);
    }

    /** These settings on a controller started at {@code epoch} ({@link PriorityWeights#calculatedAt}). */
    public SchedulerConfig withPriorityEpoch(long epoch) {
        return withPriorityEpoch(epoch, priority.earlierStarts());
    }

    /**
     * These settings on a controller started at {@code epoch} after controllers on the same
     * state started at {@code earlier} ({@link PriorityWeights#chargedUntil}).
     */
    public SchedulerConfig withPriorityEpoch(long epoch, List<Long> earlier) {
        return new SchedulerConfig(
                backfill,
                reservationDepth,
                windowSeconds,
                priority.withCalcEpoch(epoch, earlier),
                select,
                qos,
                preempt,
                prologWaited);
    }

    /** Collects a scheduler's settings; what is not set keeps Slurm's default. */
    public static final class Builder {
        private final Scheduler.SelectDefaults select;
        private boolean backfill = true;
        private int reservationDepth = 500;
        private long windowSeconds = 86400;
        private PriorityWeights priority = PriorityWeights.BASIC;
        private QosPriorities qos = QosPriorities.DEFAULT;
        private PreemptPolicy preempt = PreemptPolicy.NONE;
        private boolean prologWaited;

        private Builder(Scheduler.SelectDefaults select) {
            this.select = requireNonNull(select, "select is null");
        }

        /** {@code SchedulerType=sched/backfill} (else sched/builtin). */
        public Builder backfill(boolean value) {
            this.backfill = value;
            return this;
        }

        /** {@code bf_max_job_test}. */
        public Builder reservationDepth(int value) {
            this.reservationDepth = value;
            return this;
        }

        /** {@code bf_window}, in seconds. */
        public Builder windowSeconds(long value) {
            this.windowSeconds = value;
            return this;
        }

        public Builder priority(PriorityWeights value) {
            this.priority = value;
            return this;
        }

        public Builder qos(QosPriorities value) {
            this.qos = value;
            return this;
        }

        public Builder preempt(PreemptPolicy value) {
            this.preempt = value;
            return this;
        }

        /** A Prolog runs when a job is allocated and is waited for ({@code PrologFlags=Alloc}, no NoHold, a {@code Prolog}). */
        public Builder prologWaited(boolean value) {
            this.prologWaited = value;
            return this;
        }

        public SchedulerConfig build() {
            return new SchedulerConfig(
                    backfill, reservationDepth, windowSeconds, priority, select, qos, preempt, prologWaited);
        }
    }
}
