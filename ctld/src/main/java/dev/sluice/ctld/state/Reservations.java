package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.slurm.NodeFlag;
import dev.sluice.common.slurm.ReservationFlag;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The advance reservations the controller holds, in the order they were created (as Slurm lists
 * them). Immutable: a change gives a new table, which images share as they are.
 *
 * @param lastId the highest id any reservation got (the next unnamed one is {@code user_lastId+1})
 */
public record Reservations(Map<String, Reservation> byName, int lastId) {
    public static final Reservations NONE = new Reservations(Map.of(), 0);

    public Reservations {
        byName = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(byName));
    }

    /** The reservation of this name, unless it is over for good. */
    public Optional<Reservation> find(String name, long now) {
        requireNonNull(name, "name is null");
        Reservation r = byName.get(name);
        return r == null || r.ended(now) ? Optional.empty() : Optional.of(r.window(now));
    }

    /** Those not over for good, each in its window at {@code now}, in creation order. */
    public List<Reservation> current(long now) {
        List<Reservation> out = new ArrayList<>();
        for (Reservation r : byName.values()) {
            if (!r.ended(now)) {
                out.add(r.window(now));
            }
        }
        return out;
    }

    /**
     * Every one kept, as the controller last saved it, in creation order: what {@code scontrol
     * show reservation} and {@code sinfo -T} list. One whose window has ended shows that window,
     * INACTIVE, until the controller's periodic pass moves it on (a repeating one) or forgets it,
     * as Slurm 22.05 shows it (compat 222, 238); the scheduler reads {@link #current} instead.
     */
    public List<Reservation> shown() {
        return all();
    }

    /**
     * The flags active reservations put on a node, as Slurm 22.05 shows them: RESERVED while one
     * holds it, MAINT as well while that one is a maintenance reservation. (Slurm's periodic pass
     * sets them a second or two after a reservation begins; Sluice at once.)
     */
    public Set<NodeFlag> nodeFlags(String node, long now) {
        Set<NodeFlag> flags = EnumSet.noneOf(NodeFlag.class);
        for (Reservation r : byName.values()) {
            Reservation w = r.window(now);
            if (w.active(now) && w.nodes().contains(node)) {
                flags.add(NodeFlag.RESERVED);
                if (w.has(ReservationFlag.MAINT)) {
                    flags.add(NodeFlag.MAINT);
                }
            }
        }
        return flags;
    }

    /**
     * The active MAGNETIC reservation that lets this user and account in and holds every one of
     * these nodes, if any: where a job that named no reservation and starts there runs (Slurm
     * 22.05 makes it the job's reservation, compat 188).
     */
    public Optional<Reservation> magnetFor(String user, String account, List<String> nodes, long now) {
        for (Reservation r : current(now)) {
            if (r.has(ReservationFlag.MAGNETIC)
                    && r.active(now)
                    && r.permits(user, account)
                    && r.nodes().containsAll(nodes)) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }

    /** Every one kept, as saved (ended ones too, until replaced or deleted). */
    public List<Reservation> all() {
        return List.copyOf(byName.values());
    }

    public boolean isEmpty() {
        return byName.isEmpty();
    }

    /** With {@code r} added, or put in place of the one of its name. */
    public Reservations with(Reservation r) {
        Map<String, Reservation> next = new LinkedHashMap<>(byName);
        if (next.containsKey(r.name()) && next.get(r.name()).id() != r.id()) {
            next.remove(r.name());
        }
        next.put(r.name(), r);
        return new Reservations(next, Math.max(lastId, r.id()));
    }

    public Reservations without(String name) {
        Map<String, Reservation> next = new LinkedHashMap<>(byName);
        next.remove(name);
        return new Reservations(next, lastId);
    }
}
