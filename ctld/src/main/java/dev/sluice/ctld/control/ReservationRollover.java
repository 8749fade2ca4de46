package dev.sluice.ctld.control;

import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobEvent;
import dev.sluice.ctld.state.JobLifecycle;
import dev.sluice.ctld.state.Reservation;
import dev.sluice.ctld.state.StateRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * What slurmctld's periodic reservation pass does to reservations whose window has ended: a
 * repeating one (HOURLY, DAILY, WEEKDAY, WEEKEND, WEEKLY) moves to its next window, and the
 * journaled change reaches accounting, which keeps a record per window; one that does not repeat
 * is forgotten (its accounting row keeps its end), and the pending jobs that still name it are
 * held ({@link #holdWaiting}). The scheduler does not wait for this: it reads
 * every reservation in its window at the moment it asks ({@link Reservation#window}) and never
 * one that is over, so this only changes what is shown and saved.
 *
 * <p>slurmctld makes the pass every 30 s from its start ({@link #PERIOD_SECONDS}): until then
 * {@code scontrol show reservation} and {@code sinfo -T} show the window that ended, INACTIVE
 * (compat 222 for repeating ones, 238 for one that does not repeat). The passes are derived from
 * the controller's start and the clock ({@link #lastPass}), so the decision keeps no memory: a
 * reservation is acted on at the first tick after a pass that came at or after its end, and what
 * that writes takes it out of the next tick's reckoning. Pure.
 */
public final class ReservationRollover {
    /** slurmctld's PERIODIC_TIMEOUT: how often its background thread checks reservations. */
    public static final long PERIOD_SECONDS = 30;

    private ReservationRollover() {}

    /**
     * When the latest periodic pass came, as of {@code now}, for a controller started at {@code
     * started}: {@code started} itself while none has (slurmctld's first is 30 s after its start).
     */
    public static long lastPass(long started, long now) {
        if (now <= started) {
            return started;
        }
        return started + (now - started) / PERIOD_SECONDS * PERIOD_SECONDS;
    }

    /**
     * The pass's work as of {@code now}: moves on every repeating reservation, and deletes every
     * other one, whose window ended by the latest pass. Called on every tick of the controller
     * loop; writes nothing between passes.
     */
    public static ControlResult<Void> advance(ClusterView state, long started, long now) {
        long pass = lastPass(started, now);
        if (pass == started) {
            return ControlResult.of(List.of(), List.of(), null);
        }
        List<StateRecord> records = new ArrayList<>();
        for (Reservation r : state.reservations().all()) {
            if (r.end() > pass) {
                continue;
            }
            if (r.repeats()) {
                records.add(new StateRecord.ReservationSaved(r.window(now), now));
            } else {
                records.addAll(holdWaiting(state, r.name(), now));
                records.add(new StateRecord.ReservationDeleted(r.name(), now));
            }
        }
        return ControlResult.of(records, List.of(), null);
    }

    /**
     * The pending jobs that name a reservation being forgotten are held, as slurmctld does
     * (RESV_DEL_HOLD, compat 255): they would otherwise wait for a window that never comes, and
     * released they run without it. A job already held so keeps its hold.
     */
    private static List<StateRecord> holdWaiting(ClusterView state, String reservation, long now) {
        List<StateRecord> records = new ArrayList<>();
        for (Job job : state.jobs()) {
            if (job.isPending()
                    && job.terms().hold() != Job.Hold.RESV_DEL
                    && reservation.equals(job.request().reservation())) {
                records.addAll(JobLifecycle.apply(job, new JobEvent.Hold(Job.Hold.RESV_DEL), now)
                        .records());
            }
        }
        return records;
    }
}
