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
 */
public final class ReservationRollover {
    private ReservationRollover() {}

    /** The controller's periodic pass (about once a second). */
    public static ControlResult<Void> advance(ClusterView state, long now) {
        List<StateRecord> records = new ArrayList<>();
        for (Reservation r : state.reservations().all()) {
            if (r.repeats() && r.end() <= now) {
                records.add(new StateRecord.ReservationSaved(r.window(now), now));
            }
        }
        return ControlResult.of(records, List.of(), null);
    }
}
