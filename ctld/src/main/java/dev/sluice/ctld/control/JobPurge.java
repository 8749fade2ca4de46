package dev.sluice.ctld.control;

import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobLifecycle;
import dev.sluice.ctld.state.Transition;
import java.util.ArrayList;
import java.util.List;

/**
 * MinJobAge: jobs that ended more than that long ago are forgotten by the controller (they stay
 * in accounting). Run once a second by the loop.
 */
public final class JobPurge {
    private JobPurge() {}

    public static ControlResult<Void> purge(ClusterView state, long now, int minJobAgeSeconds) {
        List<Job> old = new ArrayList<>();
        for (Job job : state.jobs()) {
            if (job.status().state().isFinished() && now - job.run().endTime() > minJobAgeSeconds) {
                old.add(job);
            }
        }
        if (old.isEmpty()) {
            return ControlResult.answer(null);
        }
        Transition purged = JobLifecycle.purge(old, now);
        return ControlResult.of(purged.records(), purged.effects(), null);
    }
}
