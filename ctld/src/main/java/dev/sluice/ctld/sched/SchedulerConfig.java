package dev.sluice.ctld.sched;

import static java.util.Objects.requireNonNull;

import dev.sluice.ctld.queue.PriorityWeights;
import dev.sluice.ctld.queue.QosPriorities;

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
        PreemptPolicy preempt) {

    /** Without preemption (preempt/none). */
    public SchedulerConfig(
            boolean backfill,
            int reservationDepth,
            long windowSeconds,
            PriorityWeights priority,
            Scheduler.SelectDefaults select,
            QosPriorities qos) {
        this(backfill, reservationDepth, windowSeconds, priority, select, qos, PreemptPolicy.NONE);
    }

    /** With only Slurm's default QOS known ({@link QosPriorities#DEFAULT}). */
    public SchedulerConfig(
            boolean backfill,
            int reservationDepth,
            long windowSeconds,
            PriorityWeights priority,
            Scheduler.SelectDefaults select) {
        this(backfill, reservationDepth, windowSeconds, priority, select, QosPriorities.DEFAULT);
    }

    /** Slurm's defaults: sched/backfill, bf_max_job_test=500, bf_window=1 day, priority/basic. */
    public static SchedulerConfig defaults(Scheduler.SelectDefaults select) {
        return new SchedulerConfig(true, 500, 86400, PriorityWeights.BASIC, select);
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
}
