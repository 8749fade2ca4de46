package dev.sluice.ctld.control;

import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.Effect;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code --signal=[B:]<sig_num>[@sig_time]}: when a running job is within {@code sig_time}
 * seconds of its time limit, its steps (or with {@code B:} its batch shell alone) get the signal
 * once, as Slurm sends it. Run once a second by the controller loop against its clock; Slurm
 * checks every 30 s or so, so its signal may come up to that much later. Pure.
 */
public final class WarnSignals {
    private WarnSignals() {}

    /** The epoch second the job's signal is due, or -1 when it has none (no signal or no limit). */
    public static long dueAt(Job job) {
        JobRequest.WarnSignal w = job.request().warnSignal();
        long limit = job.terms().timeLimitMinutes();
        if (w.signal() == 0 || !job.isRunning() || limit <= 0 || limit >= JobRequest.TIME_NOT_SET) {
            return -1;
        }
        return Math.max(job.run().startTime(), job.run().startTime() + limit * 60 - w.secondsBefore());
    }

    public static ControlResult<Void> send(ClusterView state, long now) {
        List<Effect> effects = new ArrayList<>();
        List<SoftChange> sent = new ArrayList<>();
        for (Job job : state.jobs()) {
            long due = dueAt(job);
            if (due < 0 || now < due || state.warnSignalSent(job)) {
                continue;
            }
            JobRequest.WarnSignal w = job.request().warnSignal();
            boolean batchOnly =
                    w.batchOnly() && !job.request().launch().script().isEmpty();
            // The batch shell is on the first node; steps may be on any of them.
            List<String> nodes = batchOnly
                    ? List.of(job.allocation().batchHost())
                    : job.allocation().nodeNames();
            effects.add(new Effect.Signal(job.id(), nodes, w.signal(), batchOnly, !batchOnly));
            sent.add(new SoftChange.WarnSignalSent(job.id(), job.run().startTime()));
        }
        return new ControlResult<>(List.of(), sent, effects, null);
    }
}
