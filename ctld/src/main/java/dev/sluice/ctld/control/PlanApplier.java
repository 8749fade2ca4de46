package dev.sluice.ctld.control;

import dev.sluice.common.slurm.PreemptMode;
import dev.sluice.ctld.sched.SchedulePlan;
import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.Effect;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobChange;
import dev.sluice.ctld.state.JobEvent;
import dev.sluice.ctld.state.JobLifecycle;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.ctld.state.TaskSplits;
import dev.sluice.ctld.state.Transition;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns what a scheduling pass planned into what the controller journals (Nomad's plan apply):
 * each start through the job lifecycle (an array task split off its record first), each
 * {@code --kill-on-invalid-dep} cancel, each end past a {@code --deadline} and each preemption
 * likewise, and the pass's view of the queue (reasons, expected starts, priorities) as soft
 * state. The loop only journals, replays and publishes it.
 */
public final class PlanApplier {
    private PlanApplier() {}

    public static ControlResult<Void> apply(ClusterView state, SchedulePlan plan, long now) {
        return apply(state, plan, now, false);
    }

    /**
     * @param prologWaited a Prolog runs when a job is allocated and is waited for
     *     ({@code PrologFlags=Alloc} without NoHold): the jobs started show reason Prolog until it
     *     is done ({@link AllocationProlog})
     */
    public static ControlResult<Void> apply(ClusterView state, SchedulePlan plan, long now, boolean prologWaited) {
        List<StateRecord> records = new ArrayList<>();
        List<Effect> effects = new ArrayList<>();
        TaskSplits splits = new TaskSplits(state.nextJobId());
        // Suspensions, then resumes, then starts: a suspended job's resources leave its nodes
        // before the job that takes its turn (a gang's, or its preemptor) takes them, and a
        // resumed job's come back where no start of this plan is.
        for (SchedulePlan.Preempt p : plan.preemptions()) {
            if (p.mode() == PreemptMode.SUSPEND) {
                Transition suspended = JobLifecycle.apply(state.job(p.jobId()), new JobEvent.Suspend(true), now);
                records.addAll(suspended.records());
                effects.addAll(suspended.effects());
            }
        }
        for (int id : plan.resumes()) {
            Transition resumed = JobLifecycle.apply(state.job(id), new JobEvent.Resume(), now);
            records.addAll(resumed.records());
            effects.addAll(resumed.effects());
        }
        for (SchedulePlan.Start s : plan.starts()) {
            Job job = state.job(s.jobId());
            if (s.taskId() < 0 && job.request().reservation().isEmpty()) {
                var magnet = state.reservations()
                        .magnetFor(
                                job.request().owner().userName(),
                                job.request().account(),
                                s.allocation().nodeNames(),
                                now);
                if (magnet.isPresent()) {
                    records.add(new StateRecord.JobUpdated(
                            job.id(),
                            List.of(new JobChange.ReservationName(magnet.get().name())),
                            now));
                }
            }
            JobEvent start = new JobEvent.Start(s.allocation(), s.partition(), s.timeLimitMinutes());
            // A task with a record of its own (split off to be held, or requeued) just starts.
            Transition started = s.taskId() >= 0 && job.array().pendingTasks().contains(s.taskId())
                    ? JobLifecycle.applyToTask(job, s.taskId(), splits, start, now)
                    : JobLifecycle.apply(job, start, now);
            records.addAll(started.records());
            effects.addAll(started.effects());
            if (s.suspended()) {
                for (StateRecord r : started.records()) {
                    if (r instanceof StateRecord.JobStarted js) {
                        records.addAll(
                                JobLifecycle.suspendedAtStart(js.jobId(), now).records());
                    }
                }
            }
        }
        // Each start's Prolog wait is journaled right after it, before anything else the job does.
        for (int i = records.size() - 1; i >= 0; i--) {
            if (records.get(i) instanceof StateRecord.JobStarted started) {
                records.addAll(i + 1, AllocationProlog.started(started, prologWaited));
            }
        }
        for (SchedulePlan.Preempt p : plan.preemptions()) {
            Job victim = state.job(p.jobId());
            if (p.mode() == PreemptMode.SUSPEND) {
                continue;
            }
            // GraceTime: signalled now, PreemptKills ends it when the time is up.
            JobEvent event = p.graceSeconds() > 0
                    ? new JobEvent.PreemptGrace(
                            p.graceSeconds(),
                            p.mode() == PreemptMode.REQUEUE,
                            p.mode() == PreemptMode.REQUEUE ? p.holdBackSeconds() : 0)
                    : new JobEvent.Preempt(p.mode() == PreemptMode.REQUEUE, p.holdBackSeconds());
            Transition preempted = JobLifecycle.apply(victim, event, now);
            records.addAll(preempted.records());
            effects.addAll(preempted.effects());
        }
        for (int id : plan.cancels()) {
            Transition cancelled = JobLifecycle.apply(state.job(id), new JobEvent.DependencyNeverSatisfied(), now);
            records.addAll(cancelled.records());
            effects.addAll(cancelled.effects());
        }
        for (int id : plan.pastDeadline()) {
            Transition ended = JobLifecycle.apply(state.job(id), new JobEvent.DeadlineMissed(), now);
            records.addAll(ended.records());
            effects.addAll(ended.effects());
        }
        SoftChange queue = new SoftChange.QueueViewed(queueFacts(plan));
        return new ControlResult<>(records, List.of(queue), effects, null);
    }

    /** What the pass says of the pending jobs, as squeue and scontrol show it until the next. */
    public static ClusterImage.QueueFacts queueFacts(SchedulePlan plan) {
        return new ClusterImage.QueueFacts(
                plan.pendingReasons(), plan.expectedStarts(), plan.priorities(), plan.details(), plan.reservations());
    }
}
