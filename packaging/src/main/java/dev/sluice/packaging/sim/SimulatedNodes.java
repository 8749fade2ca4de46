package dev.sluice.packaging.sim;

import dev.sluice.ctld.control.BatchEnds;
import dev.sluice.ctld.loop.EffectSink;
import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.Effect;
import dev.sluice.ctld.state.Job;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The node daemons of a simulation, where the controller's effects land: a launch is recorded
 * instead of run, and a killed job's processes end at once. What a node would report back goes
 * to the {@link ReportOutbox}, never straight to the controller, which needs this sink before
 * it can start.
 */
final class SimulatedNodes implements EffectSink {
    /** The status a batch script killed by SIGKILL ends with, as wait(2) reports it. */
    private static final int KILLED = 9;

    private final ReportOutbox reports;
    private final List<Integer> launched = Collections.synchronizedList(new ArrayList<>());

    SimulatedNodes(ReportOutbox reports) {
        this.reports = Objects.requireNonNull(reports, "reports is null");
    }

    @Override
    public void execute(Effect effect, ClusterImage image) {
        if (effect instanceof Effect.LaunchBatch l) {
            launched.add(l.jobId());
        } else if (effect instanceof Effect.Terminate t) {
            // Its batch host reports the job's processes gone at once, so a cancelled job is
            // COMPLETING only until the controller hears that.
            image.job(t.jobId())
                    .map(Job::allocation)
                    .filter(Objects::nonNull)
                    .ifPresent(a -> reports.post(
                            (s, now) -> BatchEnds.complete(s, a.batchHost(), t.jobId(), KILLED, null, now)));
        }
    }

    /** The jobs launched so far, in launch order. */
    List<Integer> launched() {
        return List.copyOf(launched);
    }
}
