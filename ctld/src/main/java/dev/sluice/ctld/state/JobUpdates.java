package dev.sluice.ctld.state;

import java.util.Map;

/** Applies the fields of a {@code scontrol update job} to a job record. */
public final class JobUpdates {
    /** The keys a record may carry, canonical spelling. */
    public static final String TIME_LIMIT = "TimeLimit";

    public static final String NAME = "Name";
    public static final String COMMENT = "Comment";
    public static final String PRIORITY = "Priority";
    public static final String NICE = "Nice";

    private JobUpdates() {}

    static Job apply(Job job, Map<String, String> changes) {
        JobRequest r = job.request();
        String name = changes.getOrDefault(NAME, r.name());
        String comment = changes.getOrDefault(COMMENT, r.comment());
        int nice = changes.containsKey(NICE) ? Integer.parseInt(changes.get(NICE)) : r.nice();
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
        if (changes.containsKey(TIME_LIMIT)) {
            long limit = Long.parseLong(changes.get(TIME_LIMIT));
            updated = updated.with(b -> b.timeLimitMinutes(limit));
        }
        if (changes.containsKey(PRIORITY)) {
            long priority = Long.parseLong(changes.get(PRIORITY));
            updated = updated.with(b -> b.adminPriority(priority));
        }
        return updated;
    }
}
