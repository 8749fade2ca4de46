package dev.sluice.ctld.state;

import java.util.List;

/**
 * Applies the fields of a {@code scontrol update job} to a job record. The handler decided
 * which changes are allowed; this only carries them out, so replay needs no rules.
 */
public final class JobUpdates {
    private JobUpdates() {}

    static Job apply(Job job, List<JobChange> changes) {
        JobRequest r = job.request();
        String name = r.name();
        String comment = r.comment();
        int nice = r.nice();
        int minNodes = r.size().minNodes();
        int maxNodes = r.size().maxNodes();
        int tasks = r.size().numTasks();
        String partition = job.terms().partition();
        long limit = -1;
        long priority = -1;
        int throttle = job.array().throttle();
        dev.sluice.common.slurm.Licenses licenses = r.licenses();
        String reservation = r.reservation();
        JobWckey wckey = r.wckey();
        for (JobChange change : changes) {
            switch (change) {
                case JobChange.Name n -> name = n.name();
                case JobChange.Comment c -> comment = c.comment();
                case JobChange.Nice n -> nice = n.nice();
                case JobChange.TimeLimit t -> limit = t.minutes();
                case JobChange.Priority p -> priority = p.priority();
                case JobChange.MinNodes m -> minNodes = m.nodes();
                case JobChange.MaxNodes m -> maxNodes = m.nodes();
                case JobChange.Tasks t -> tasks = t.tasks();
                case JobChange.PartitionName p -> partition = p.partition();
                case JobChange.ArrayThrottle t -> throttle = t.throttle();
                case JobChange.LicenseList l -> licenses = l.licenses();
                case JobChange.ReservationName n -> reservation = n.reservation();
                case JobChange.WckeyName w -> wckey = w.wckey();
            }
        }
        JobRequest changed = r;
        if (!name.equals(r.name()) || !comment.equals(r.comment()) || nice != r.nice()) {
            changed = changed.withDescription(name, comment, nice);
        }
        boolean moved = !partition.equals(job.terms().partition());
        if (minNodes != r.size().minNodes()
                || maxNodes != r.size().maxNodes()
                || tasks != r.size().numTasks()
                || moved) {
            changed = changed.withShape(minNodes, maxNodes, tasks, moved ? partition : r.partition());
        }
        if (!licenses.equals(r.licenses())) {
            changed = changed.withLicenses(licenses);
        }
        if (!reservation.equals(r.reservation())) {
            changed = changed.withReservation(reservation);
        }
        if (!wckey.equals(r.wckey())) {
            changed = changed.withWckey(wckey);
        }
        JobRequest request = changed;
        String newPartition = partition;
        Job updated = job.with(request, b -> b.partition(newPartition));
        if (limit >= 0) {
            long newLimit = limit;
            updated = updated.with(b -> b.timeLimitMinutes(newLimit));
        }
        if (priority >= 0) {
            long newPriority = priority;
            updated = updated.with(b -> b.adminPriority(newPriority));
        }
        if (throttle != job.array().throttle()) {
            ArrayPart a = job.array();
            ArrayPart part = new ArrayPart(a.arrayJobId(), a.taskId(), a.pendingTasks(), throttle);
            updated = updated.with(b -> b.array(part));
        }
        return updated;
    }
}
