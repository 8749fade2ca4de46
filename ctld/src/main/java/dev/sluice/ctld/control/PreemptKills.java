package dev.sluice.ctld.control;

import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.Effect;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobEvent;
import dev.sluice.ctld.state.JobLifecycle;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.ctld.state.Transition;
import java.util.ArrayList;
import java.util.List;

/**
 * Ends the jobs preempted with a {@code GraceTime} once it is up: they were sent SIGTERM when
 * preempted ({@link PlanApplier}) and now end PREEMPTED and are killed, or are requeued
 * ({@code REQUEUE}), as Slurm does at their new end time (compat 242, 243). Run once a second by the controller loop against its clock. Pure.
 */
public final class PreemptKills {
    private PreemptKills() {}

    public static ControlResult<Void> expire(ClusterView state, long now) {
        List<StateRecord> records = new ArrayList<>();
        List<Effect> effects = new ArrayList<>();
        for (Job job : state.jobs()) {
            if (!job.isRunning() || job.status().state() != dev.sluice.common.slurm.JobState.RUNNING) {
                continue;
            }
            var grace = state.preemptGrace(job);
            if (grace.isEmpty() || now < grace.get().deadline()) {
                continue;
            }
            // Requeued or ended as its mode said when the grace began (Slurm keeps it likewise).
            JobEvent end =
                    new JobEvent.Preempt(grace.get().requeue(), grace.get().holdBackSeconds());
            Transition t = JobLifecycle.apply(job, end, now);
            records.addAll(t.records());
            effects.addAll(t.effects());
        }
        return ControlResult.of(records, effects, null);
    }
}
