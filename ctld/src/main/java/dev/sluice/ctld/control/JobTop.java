package dev.sluice.ctld.control;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobChange;
import dev.sluice.ctld.state.JobEvent;
import dev.sluice.ctld.state.JobLifecycle;
import dev.sluice.ctld.state.StateRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * {@code scontrol top JOB[,JOB...]}: the listed pending jobs move to the top of the jobs of their
 * user, partition, account and QOS, in the order listed, by nice values, as Slurm 22.05's
 * job_set_top. The listed jobs and the other such jobs pool their priorities; the listed ones take
 * the highest, in order, each one's nice falling by what its priority gains; the others' nice
 * rises by that total, spread evenly (job id order takes any remainder last), so the user's
 * priorities add up as before (compat 306). Only an operator may (Slurm's default, without
 * SchedulerParameters=enable_user_top): anyone else is refused {@code Access/permission denied}
 * whatever the jobs (compat 307). An unknown id is {@code Invalid job id specified}, a job not
 * pending {@code Job is no longer pending execution}.
 */
public final class JobTop {
    private JobTop() {}

    /**
     * @param ids the job ids as listed, in order
     * @param priority each job's priority now (the last pass's)
     */
    public static ControlResult<Void> top(
            ClusterView state, Caller caller, List<String> ids, ToLongFunction<Job> priority, long now) {
        if (!caller.isOperator()) {
            throw new SlurmException(ErrorCode.ACCESS_DENIED);
        }
        Set<Job> listed = new LinkedHashSet<>();
        for (String id : ids) {
            long number = id.strip().matches("[0-9]{1,10}") ? Long.parseLong(id.strip()) : -1;
            Job job = number >= 0 && number <= Integer.MAX_VALUE ? state.job((int) number) : null;
            if (job == null) {
                throw new SlurmException(ErrorCode.INVALID_JOB_ID);
            }
            if (job.status().state() != JobState.PENDING) {
                throw new SlurmException(ErrorCode.JOB_NOT_PENDING);
            }
            listed.add(job);
        }
        if (listed.isEmpty()) {
            throw new SlurmException(ErrorCode.INVALID_JOB_ID);
        }
        Job first = listed.iterator().next();
        // A listed job of another user, partition, account or QOS is left alone, as Slurm's.
        List<Job> top = listed.stream()
                .filter(j -> sameQueue(first, j) && priority.applyAsLong(j) > 0)
                .toList();
        List<Job> others = state.jobs().stream()
                .filter(j -> j.isPending() && !listed.contains(j) && sameQueue(first, j))
                .filter(j -> priority.applyAsLong(j) > 0)
                .sorted(Comparator.comparingInt(Job::id))
                .toList();
        List<Long> pool = new ArrayList<>();
        top.forEach(j -> pool.add(priority.applyAsLong(j)));
        others.forEach(j -> pool.add(priority.applyAsLong(j)));
        pool.sort(Comparator.reverseOrder());

        List<StateRecord> records = new ArrayList<>();
        long total = 0;
        long last = -1;
        for (int i = 0; i < top.size(); i++) {
            Job job = top.get(i);
            long next = pool.get(i);
            if (next == last && last > 1) {
                next = last - 1;
            }
            last = next;
            long delta = next - priority.applyAsLong(job);
            total += delta;
            records.addAll(nice(job, job.request().nice() - delta, now));
        }
        int left = others.size();
        for (Job job : others) {
            if (total == 0) {
                break;
            }
            long share = total / left--;
            total -= share;
            records.addAll(nice(job, job.request().nice() + share, now));
        }
        return ControlResult.of(records, List.of(), null);
    }

    private static boolean sameQueue(Job a, Job b) {
        return a.request().owner().uid() == b.request().owner().uid()
                && Objects.equals(a.terms().partition(), b.terms().partition())
                && Objects.equals(a.request().account(), b.request().account())
                && Objects.equals(a.request().qos(), b.request().qos());
    }

    private static List<StateRecord> nice(Job job, long nice, long now) {
        if (nice == job.request().nice()) {
            return List.of();
        }
        return JobLifecycle.apply(job, new JobEvent.Update(List.of(new JobChange.Nice((int) nice))), now)
                .records();
    }
}
