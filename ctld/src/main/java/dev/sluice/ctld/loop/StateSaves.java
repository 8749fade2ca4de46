package dev.sluice.ctld.loop;

import static java.util.Objects.requireNonNull;

import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.StateRecord;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * When slurmctld would have saved its state, as far as {@code scontrol show reservation} can tell:
 * it fills in a partial reservation's cores ({@code NodeName=n1 CoreIDs=0-1}) only while packing
 * the reservation for its state file, so they are listed from the first save after the
 * reservation was made or changed. Its saving thread runs at once for a change unless it saved in
 * the last 5 s (SAVE_MAX_WAIT), and then 5 s after that save, whatever changed, jobs included
 * (compat 258, 162 run right after another scenario's changes: no CoreIDs; 170: listed). Sluice
 * journals every change, so each journaled batch stands for one of Slurm's save requests.
 * Reservations recovered at a start are listed (Slurm reads the cores back from its state).
 * Fed on the loop thread, read by the request threads.
 */
public final class StateSaves implements JournalObserver {
    /** slurmctld's SAVE_MAX_WAIT: the least time between two state saves. */
    public static final long SAVE_MAX_WAIT_SECONDS = 5;

    private final InstantSource clock;
    private long lastSave = Long.MIN_VALUE / 2;
    /** When the save already asked for comes; -1: none is waiting. */
    private long pending = -1;
    // Loop thread only: what the batch being journaled changed.
    private boolean changed;
    private final Set<String> reservations = new HashSet<>();
    private final Map<String, Long> listedFrom = new HashMap<>();

    public StateSaves(InstantSource clock) {
        this.clock = requireNonNull(clock, "clock is null");
    }

    @Override
    public void applied(long sequence, StateRecord record, ClusterView state) {
        changed = true;
        if (record instanceof StateRecord.ReservationSaved r) {
            reservations.add(r.reservation().name());
        } else if (record instanceof StateRecord.ReservationDeleted d) {
            reservations.remove(d.name());
            synchronized (this) {
                listedFrom.remove(d.name());
            }
        }
    }

    @Override
    public void beforeSync() {}

    @Override
    public void synced(long sequence) {
        if (!changed) {
            return;
        }
        changed = false;
        long at = saveFor(clock.instant().getEpochSecond());
        synchronized (this) {
            reservations.forEach(name -> listedFrom.put(name, at));
        }
        reservations.clear();
    }

    /** Whether a save has come since the reservation was last made or changed, as of {@code now}. */
    public synchronized boolean saved(String reservation, long now) {
        return listedFrom.getOrDefault(reservation, Long.MIN_VALUE) <= now;
    }

    /** A change at {@code now}: when the save that covers it comes. */
    synchronized long saveFor(long now) {
        if (pending >= 0 && pending <= now) {
            lastSave = pending;
            pending = -1;
        }
        if (pending >= 0) {
            return pending;
        }
        if (now - lastSave >= SAVE_MAX_WAIT_SECONDS) {
            lastSave = now;
            return now;
        }
        pending = lastSave + SAVE_MAX_WAIT_SECONDS;
        return pending;
    }
}
