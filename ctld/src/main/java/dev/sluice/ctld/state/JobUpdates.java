package dev.sluice.ctld.state;

import java.util.List;

/** Applies the fields of a {@code scontrol update job} to a job record. */
public final class JobUpdates {
    private JobUpdates() {}

    static Job apply(Job job, List<JobChange> changes) {
        JobRequest r = job.request();
        String name = r.name();
        String comment = r.comment();
        int nice = r.nice();
        long limit = -1;
        long priority = -1;
        for (JobChange change : changes) {
            switch (change) {
                case JobChange.Name n -> name = n.name();
                case JobChange.Comment c -> comment = c.comment();
                case JobChange.Nice n -> nice = n.nice();
                case JobChange.TimeLimit t -> limit = t.minutes();
                case JobChange.Priority p -> priority = p.priority();
            }
        }
        Job updated = job;
        if (!name.equals(r.name()) || !comment.equals(r.comment()) || nice != r.nice()) {
            JobRequest changed = r.withDescription(name, comment, nice);
            updated = new Job(
                    job.id(),
                    changed,
                    job.partition(),
                    job.state(),
                    job.reason(),
                    job.submitTime(),
                    job.eligibleTime(),
                    job.startTime(),
                    job.endTime(),
                    job.timeLimitMinutes(),
                    job.allocation(),
                    job.exitStatus(),
                    job.restartCount(),
                    job.array(),
                    job.hold(),
                    job.adminPriority(),
                    job.suspendTime(),
                    job.preSuspendSeconds());
        }
        if (limit >= 0) {
            long newLimit = limit;
            updated = updated.with(b -> b.timeLimitMinutes(newLimit));
        }
        if (priority >= 0) {
            long newPriority = priority;
            updated = updated.with(b -> b.adminPriority(newPriority));
        }
        return updated;
    }
}
