package dev.sluice.ctld.control;

import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.Reservation;
import dev.sluice.ctld.state.StateRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * Moves a repeating reservation (HOURLY, DAILY, WEEKDAY, WEEKEND, WEEKLY) to its next window once
 * a window has ended, as slurmctld does: {@code scontrol show reservation} then shows the new
 * StartTime and EndTime, and the journaled change reaches accounting, which keeps a record per
 * window. The scheduler does not wait for this: it reads every reservation in its window at the
 * moment it asks ({@link Reservation#window}), so this only saves where it already is.
 *
 * <p>slurmctld does it in its periodic pass, every 30 s from its start ({@link #PERIOD_SECONDS}):
 * until then {@code scontrol show reservation} and {@code sinfo -T} show the window that ended,
 * INACTIVE (compat 222). {@link Periodic} keeps that clock for the controller loop.
 */
public final class ReservationRollover {
    /** slurmctld's PERIODIC_TIMEOUT: how often its background thread checks reservations. */
    public static final long PERIOD_SECONDS = 30;

    private ReservationRollover() {}

    /** Moves every repeating reservation whose window has ended at {@code now}. */
    public static ControlResult<Void> advance(ClusterView state, long now) {
        List<StateRecord> records = new ArrayList<>();
        for (Reservation r : state.reservations().all()) {
            if (r.repeats() && r.end() <= now) {
                records.add(new StateRecord.ReservationSaved(r.window(now), now));
            }
        }
        return ControlResult.of(records, List.of(), null);
    }

    /**
     * The rollover on slurmctld's clock: called about once a second by the controller loop, it
     * acts only once {@link #PERIOD_SECONDS} have passed since the controller started or it last
     * acted. Confined to the controller thread, as every command is.
     */
    public static final class Periodic {
        private long last;

        /** @param startedAt when the controller started, epoch seconds */
        public Periodic(long startedAt) {
            this.last = startedAt;
        }

        public ControlResult<Void> advance(ClusterView state, long now) {
            if (now - last < PERIOD_SECONDS) {
                return ControlResult.of(List.of(), List.of(), null);
            }
            last = now;
            return ReservationRollover.advance(state, now);
        }
    }
}
