package dev.sluice.ctld.state;

import java.util.List;
import java.util.TreeSet;

/**
 * When the controllers on this state started, from their {@link StateRecord.ControllerStarted}
 * records: the counterpart of slurmctld's {@code priority_last_decay_ran}. Only the latest {@link
 * #KEPT} are kept: older ones concern jobs purged long since.
 */
final class ControllerStarts {
    static final int KEPT = 100;

    private final TreeSet<Long> starts = new TreeSet<>();

    void started(long time) {
        starts.add(time);
        while (starts.size() > KEPT) {
            starts.pollFirst();
        }
    }

    /** Oldest first. */
    List<Long> all() {
        return List.copyOf(starts);
    }
}
