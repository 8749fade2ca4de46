package dev.sluice.ctld.control;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.ctld.limits.PolicyView;
import dev.sluice.ctld.limits.WckeyAdmission;
import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobChange;
import dev.sluice.ctld.state.JobEvent;
import dev.sluice.ctld.state.JobLifecycle;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.JobWckey;
import dev.sluice.ctld.state.Partition;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.ctld.state.TaskSet;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code scontrol update JobId=... Key=Value...}, decided as Slurm 22.05's {@code _update_job}
 * decides it: a finished job is refused first ({@code Job has already finished}), then anyone
 * but its owner or an operator ({@code Invalid user id}); then each field by its own rule, in
 * Slurm's order, the first refusal answering for the whole request. A value equal to the job's
 * is no change. The changes arrive parsed ({@link JobChange}); what is allowed is journaled as
 * one {@code JobUpdated}, so replay applies them without rules. Unlike Slurm, a refused request
 * changes nothing at all (Slurm keeps the fields it had changed before the one it refused).
 */
public final class JobUpdate {
    private JobUpdate() {}

    /** What a whole array's update did to some of its tasks: Slurm's code for them. */
    public record TaskOutcome(TaskSet tasks, ErrorCode code) {}

    /**
     * @return for a whole job array ({@code JobId=} its id), what each of its records made of
     *     the request, grouped by outcome and ordered by lowest task, as Slurm 22.05 answers
     *     (each record is updated or refused on its own); null for any other target
     */
    public static ControlResult<List<TaskOutcome>> update(
            ClusterView state, Caller caller, String target, List<JobChange> changes, long now) {
        return update(state, caller, target, changes, now, PolicyView.OFF);
    }

    /** @param limits TrackWCKey and AccountingStorageEnforce, for a {@code WCKey=} change */
    public static ControlResult<List<TaskOutcome>> update(
            ClusterView state, Caller caller, String target, List<JobChange> changes, long now, PolicyView limits) {
        List<StateRecord> records = new ArrayList<>();
        List<JobTargets.Target> targets = JobTargets.resolve(state, target);
        boolean wholeArray = target.indexOf('_') < 0
                && targets.stream().allMatch(t -> t.job().array().isArray());
        Map<ErrorCode, TaskSet> outcomes = new LinkedHashMap<>();
        for (JobTargets.Target t : targets) {
            Job job = t.job();
            ErrorCode code = ErrorCode.SUCCESS;
            try {
                records.addAll(updateOne(state, caller, job, changes, now, limits));
            } catch (SlurmException e) {
                if (!wholeArray) {
                    throw e;
                }
                code = e.code();
            }
            if (wholeArray) {
                TaskSet tasks = job.array().pendingTasks().isEmpty()
                        ? TaskSet.of(List.of(job.array().taskId()))
                        : job.array().pendingTasks();
                outcomes.merge(code, tasks, TaskSet::union);
            }
        }
        if (!wholeArray) {
            return ControlResult.of(records, List.of(), null);
        }
        List<TaskOutcome> answer = new ArrayList<>();
        outcomes.forEach((code, tasks) -> answer.add(new TaskOutcome(tasks, code)));
        answer.sort(Comparator.comparingInt(o -> o.tasks().first()));
        return ControlResult.of(records, List.of(), answer);
    }

    private static List<StateRecord> updateOne(
            ClusterView state, Caller caller, Job job, List<JobChange> changes, long now, PolicyView limits) {
        List<StateRecord> records = new ArrayList<>();
        if (job.status().state().isFinished()) {
            throw new SlurmException(ErrorCode.JOB_FINISHED);
        }
        if (!caller.mayActOnJobOf(job.request().owner().uid())) {
            throw new SlurmException(ErrorCode.USER_ID_MISSING);
        }
        Decision d = decide(state, caller, job, changes, limits);
        if (!d.changes().isEmpty()) {
            records.addAll(JobLifecycle.apply(job, new JobEvent.Update(d.changes()), now)
                    .records());
        }
        if (d.hold() != null) {
            records.addAll(
                    JobLifecycle.apply(job, new JobEvent.Hold(d.hold()), now).records());
        }
        return records;
    }

    /** What one job gets: the changes to journal, and a hold ({@code Priority=0}), or null. */
    private record Decision(List<JobChange> changes, Job.Hold hold) {}

    private static Decision decide(
            ClusterView state, Caller caller, Job job, List<JobChange> asked, PolicyView limits) {
        JobRequest r = job.request();
        boolean pending = job.isPending();
        List<JobChange> out = new ArrayList<>();
        // Slurm's order: partition, node count, task count, time limit, priority, nice; then the
        // rest (name, comment), which any job not yet finished may change.
        find(asked, JobChange.PartitionName.class).ifPresent(p -> {
            if (p.partition().equals(job.terms().partition())) {
                return;
            }
            if (!pending) {
                throw new SlurmException(ErrorCode.JOB_NOT_PENDING);
            }
            Partition partition = state.partitions().stream()
                    .filter(x -> x.name().equals(p.partition()))
                    .findFirst()
                    .orElseThrow(() -> new SlurmException(ErrorCode.INVALID_PARTITION_NAME));
            if (!partition.acceptsJobs()) {
                throw new SlurmException(ErrorCode.PARTITION_NOT_AVAIL);
            }
            out.add(p);
        });
        nodeCount(job, asked, out);
        find(asked, JobChange.Tasks.class).ifPresent(t -> {
            if (!pending) {
                throw new SlurmException(ErrorCode.JOB_NOT_PENDING);
            }
            if (t.tasks() < 1) {
                throw new SlurmException(ErrorCode.BAD_TASK_COUNT);
            }
            if (t.tasks() != r.size().numTasks()) {
                out.removeIf(c -> c instanceof JobChange.Tasks);
                out.add(t);
            }
        });
        find(asked, JobChange.LicenseList.class)
                .filter(l -> !l.licenses().equals(r.licenses()))
                .ifPresent(l -> {
                    // Slurm 22.05 lets an operator change a running job's licenses (they are
                    // given back and taken again, even past the total) and anyone drop them all.
                    boolean running = job.status().state() == dev.sluice.common.slurm.JobState.RUNNING;
                    if (!pending
                            && !(running && (caller.isOperator() || l.licenses().isEmpty()))) {
                        throw new SlurmException(ErrorCode.JOB_NOT_PENDING);
                    }
                    out.add(l);
                });
        find(asked, JobChange.TimeLimit.class).ifPresent(t -> timeLimit(state, caller, job, t, out));
        find(asked, JobChange.WckeyName.class).ifPresent(w -> {
            // Checked as at submit (compat 221): a pending job only, its user's under enforcement.
            if (!pending) {
                throw new SlurmException(ErrorCode.JOB_NOT_PENDING);
            }
            JobWckey settled = WckeyAdmission.resolve(limits, r.owner().userName(), w.wckey());
            if (!settled.equals(r.wckey())) {
                out.add(new JobChange.WckeyName(settled));
            }
        });
        Job.Hold[] hold = {null};
        find(asked, JobChange.Priority.class).ifPresent(p -> hold[0] = priority(state, caller, job, p, out));
        boolean fixedPriority = out.stream().anyMatch(c -> c instanceof JobChange.Priority p && p.priority() > 0)
                || (job.terms().adminPriority() > 0 && job.terms().hold() == Job.Hold.NONE);
        find(asked, JobChange.Nice.class).ifPresent(n -> {
            // A fixed priority (an operator's) makes nice meaningless: Slurm ignores it.
            if (n.nice() == r.nice() || fixedPriority) {
                return;
            }
            if (n.nice() < 0 && !caller.isOperator()) {
                throw new SlurmException(ErrorCode.ACCESS_DENIED);
            }
            out.add(n);
        });
        find(asked, JobChange.Name.class)
                .filter(n -> !n.name().equals(r.name()))
                .ifPresent(out::add);
        find(asked, JobChange.Comment.class)
                .filter(c -> !c.comment().equals(r.comment()))
                .ifPresent(out::add);
        // The throttle is the array's, kept by the record of its pending tasks; a task that
        // runs on its own takes the request without a change.
        find(asked, JobChange.ArrayThrottle.class)
                .filter(t -> !job.array().pendingTasks().isEmpty()
                        && t.throttle() != job.array().throttle())
                .ifPresent(out::add);
        return new Decision(List.copyOf(out), hold[0]);
    }

    /**
     * {@code NumNodes=N} sets the least count (the most is kept), {@code N-M} both. A running
     * job may not grow; Sluice does not shrink one either (Slurm does, when asked for fewer).
     */
    private static void nodeCount(Job job, List<JobChange> asked, List<JobChange> out) {
        var min = find(asked, JobChange.MinNodes.class);
        var max = find(asked, JobChange.MaxNodes.class);
        if (min.isEmpty() && max.isEmpty()) {
            return;
        }
        JobRequest r = job.request();
        if (!job.isPending()) {
            int has = job.allocation() == null ? 0 : job.allocation().nodes().size();
            if (max.isPresent() || min.get().nodes() != has) {
                throw new SlurmException(ErrorCode.NOT_SUPPORTED);
            }
            return;
        }
        int newMin = min.map(JobChange.MinNodes::nodes).orElse(r.size().minNodes());
        int newMax = max.map(JobChange.MaxNodes::nodes).orElse(r.size().maxNodes());
        if (newMin < 1 || (newMax > 0 && newMax < newMin)) {
            throw new SlurmException(ErrorCode.INVALID_NODE_COUNT);
        }
        if (newMin != r.size().minNodes()) {
            out.add(new JobChange.MinNodes(newMin));
            // Slurm raises the task count to at least one a node.
            if (r.size().numTasks() > 0 && r.size().numTasks() < newMin) {
                out.add(new JobChange.Tasks(newMin));
            }
        }
        if (newMax != r.size().maxNodes()) {
            out.add(new JobChange.MaxNodes(newMax));
        }
    }

    /**
     * Operators set any limit, of a running job too; a user may lower the limit, and raise that
     * of a pending job up to its partition's MaxTime; otherwise {@code Access/permission denied}.
     */
    private static void timeLimit(
            ClusterView state, Caller caller, Job job, JobChange.TimeLimit t, List<JobChange> out) {
        long now = job.terms().timeLimitMinutes();
        long wanted = t.minutes();
        if (wanted == now) {
            return;
        }
        if (caller.isOperator() || wanted < now) {
            out.add(t);
            return;
        }
        Partition partition = state.partitions().stream()
                .filter(p -> p.name().equals(job.terms().partition()))
                .findFirst()
                .orElse(null);
        if (job.isPending() && partition != null && partition.limits().maxTimeMinutes() >= wanted) {
            out.add(t);
            return;
        }
        throw new SlurmException(ErrorCode.ACCESS_DENIED);
    }

    /**
     * {@code Priority=0} holds the job (an operator's hold, or the user's own); another value is
     * an operator's fixed priority, which also sets nice back to 0. A user may only lower it,
     * and Slurm then says the change will not last; a held job must be released first.
     *
     * @return the hold to put on the job, or null
     */
    private static Job.Hold priority(
            ClusterView state, Caller caller, Job job, JobChange.Priority p, List<JobChange> out) {
        long wanted = p.priority();
        if (job.terms().hold() != Job.Hold.NONE) {
            if (wanted == 0) {
                return null;
            }
            throw new SlurmException(ErrorCode.JOB_HELD);
        }
        if (job.terms().adminPriority() > 0 && wanted == job.terms().adminPriority()) {
            return null;
        }
        long current = job.terms().adminPriority() > 0 ? job.terms().adminPriority() : state.priority(job.id());
        // A pending job's priority is above 0, so a user may always hold it with 0.
        if (!caller.isOperator() && wanted != 0 && wanted >= current) {
            throw new SlurmException(ErrorCode.ACCESS_DENIED);
        }
        if (wanted == 0) {
            return job.isPending() ? (caller.isOperator() ? Job.Hold.ADMIN : Job.Hold.USER) : null;
        }
        if (!caller.isOperator()) {
            // Slurm lowers it until the next priority computation, and says so.
            throw new SlurmException(ErrorCode.PRIO_RESET_FAIL);
        }
        out.add(p);
        if (job.request().nice() != 0) {
            out.add(new JobChange.Nice(0));
        }
        return null;
    }

    private static <T extends JobChange> java.util.Optional<T> find(List<JobChange> changes, Class<T> kind) {
        return changes.stream().filter(kind::isInstance).map(kind::cast).findFirst();
    }
}
