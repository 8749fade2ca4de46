package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

/**
 * The terms a job runs on, which an operator may change while it waits ({@code scontrol update},
 * {@code scontrol hold}).
 *
 * @param partition the partition it runs in (the first of those asked for that fits, once it runs)
 * @param timeLimitMinutes its time limit (Slurm's uint32 scale)
 * @param hold who holds it back, if anyone ({@code -H}, {@code scontrol hold})
 * @param adminPriority a priority fixed by an operator ({@code scontrol update priority=}), 0 if none
 */
public record JobTerms(String partition, long timeLimitMinutes, Job.Hold hold, long adminPriority) {
    public JobTerms {
        requireNonNull(partition, "partition is null");
        requireNonNull(hold, "hold is null");
    }

    JobTerms withPartition(String v) {
        return new JobTerms(v, timeLimitMinutes, hold, adminPriority);
    }

    JobTerms withTimeLimitMinutes(long v) {
        return new JobTerms(partition, v, hold, adminPriority);
    }

    JobTerms withHold(Job.Hold v) {
        return new JobTerms(partition, timeLimitMinutes, v, adminPriority);
    }

    JobTerms withAdminPriority(long v) {
        return new JobTerms(partition, timeLimitMinutes, hold, v);
    }
}
