package dev.sluice.ctld.control;

import static dev.sluice.ctld.control.ReservationNodes.busy;
import static dev.sluice.ctld.control.ReservationNodes.cores;
import static dev.sluice.ctld.control.ReservationNodes.named;
import static dev.sluice.ctld.control.ReservationNodes.open;
import static dev.sluice.ctld.control.ReservationNodes.overlapsAnother;
import static dev.sluice.ctld.control.ReservationNodes.pick;
import static dev.sluice.ctld.control.ReservationTerms.accounts;
import static dev.sluice.ctld.control.ReservationTerms.defaultPartition;
import static dev.sluice.ctld.control.ReservationTerms.endOf;
import static dev.sluice.ctld.control.ReservationTerms.flags;
import static dev.sluice.ctld.control.ReservationTerms.partition;
import static dev.sluice.ctld.control.ReservationTerms.requireOperator;
import static dev.sluice.ctld.control.ReservationTerms.users;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.slurm.Licenses;
import dev.sluice.common.slurm.ReservationFlag;
import dev.sluice.ctld.control.ReservationTerms.Users;
import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.Reservation;
import dev.sluice.ctld.state.StateRecord;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * {@code scontrol create|update|delete reservation}, decided as Slurm 22.05 decides them (errors
 * seen on the real cluster): operators only ({@code Invalid user id}); users and accounts must
 * exist; a reservation may not take nodes another one holds at the same time unless it is MAINT
 * or OVERLAP ({@code Requested reservation overlaps with another reservation}), nor nodes whose
 * running jobs would still run when it starts unless IGNORE_JOBS ({@code Requested nodes are
 * busy}); a reservation that jobs are in cannot be deleted ({@code Requested reservation is in use}).
 *
 * <p>This class creates and deletes; {@link ReservationUpdate} updates, {@link ReservationTerms}
 * reads the request and {@link ReservationNodes} decides the nodes, for both.
 */
public final class ReservationControl {
    /**
     * What the controller knows of users and accounts, and slurm.conf's {@code Licenses} (the
     * edge reads them).
     */
    public record Directory(Predicate<String> knownUser, Predicate<String> knownAccount, Licenses licenses) {
        public Directory {
            java.util.Objects.requireNonNull(licenses, "licenses is null");
        }

        /** Users and accounts, no license configured. */
        public Directory(Predicate<String> knownUser, Predicate<String> knownAccount) {
            this(knownUser, knownAccount, Licenses.NONE);
        }
    }

    /**
     * How far in the past a new reservation may start: Slurm 22.05 keeps such a start as given
     * (a repeating one then moves on to its next window) and refuses one further back
     * ({@code StartTime=now-700}: "Invalid time specified", compat 186).
     */
    static final long PAST_START_SECONDS = 600;

    private ReservationControl() {}

    public static ControlResult<String> create(
            ClusterView state, Caller caller, ReservationSpec spec, Directory directory, long now) {
        requireOperator(caller);
        long start = spec.start() == null ? now : spec.start();
        if (start < now - PAST_START_SECONDS) {
            throw new SlurmException(ErrorCode.INVALID_TIME_VALUE);
        }
        long end = endOf(start, spec);
        Set<ReservationFlag> flags = flags(EnumSet.noneOf(ReservationFlag.class), spec.flags());
        Users users = users(spec.users(), directory);
        List<String> accounts = accounts(spec.accounts(), directory);
        if (users.names().isEmpty() && accounts.isEmpty()) {
            // scontrol refuses this before asking; the REST API and others reach this check.
            throw new SlurmException(ErrorCode.USER_ID_MISSING);
        }
        String partition = partition(state, spec.partition());
        // Checked before the nodes, as Slurm 22.05 does (Licenses=nosuch alone: "Invalid license
        // specification", compat 283).
        Licenses licenses = spec.licenses() == null || spec.licenses().isBlank()
                ? Licenses.NONE
                : ReservationLicenses.checked(spec.licenses(), directory.licenses(), state, spec.name(), start, end);
        List<String> nodes;
        Reservation probe;
        int id = state.reservations().lastId() + 1;
        String name = spec.name() == null || spec.name().isEmpty() ? caller.userName() + "_" + id : spec.name();
        if (name.chars().anyMatch(c -> c < 0x20 || c == 0x7f || c == ' ' || c == ',')) {
            // It is printed in every listing: no control characters, blanks or commas.
            throw new SlurmException(ErrorCode.RESERVATION_INVALID);
        }
        if (spec.nodes() != null && !spec.nodes().isEmpty()) {
            nodes = named(state, spec.nodes(), flags);
            probe = PartialCores.holdNamed(
                    state,
                    reservation(name, id, start, end, nodes, partition, users, accounts, flags, state),
                    spec.cores(),
                    partition.isEmpty() ? defaultPartition(state) : partition);
            if (overlapsAnother(state, probe, now, false)) {
                throw new SlurmException(ErrorCode.RESERVATION_OVERLAP);
            }
            if (!probe.partial() && !probe.has(ReservationFlag.IGNORE_JOBS) && busy(state, nodes, start, now)) {
                throw new SlurmException(ErrorCode.NODES_BUSY);
            }
        } else if (flags.contains(ReservationFlag.ANY_NODES) && spec.cores().count() == null) {
            // ANY_NODES without Nodes=: no node at all, its jobs run anywhere; it must hold
            // something else then (Slurm 22.05: licenses here, compat 283).
            if (licenses.isEmpty()) {
                throw new SlurmException(ErrorCode.RESERVATION_INVALID);
            }
            nodes = List.of();
            probe = reservation(name, id, start, end, nodes, partition, users, accounts, flags, state);
        } else if ((spec.nodeCount() == null || spec.nodeCount() == 0)
                && spec.cores().count() == null) {
            // Licenses alone (scontrol refuses a reservation of nothing before asking).
            throw new SlurmException(ErrorCode.INVALID_NODE_NAME);
        } else {
            if (partition.isEmpty()) {
                partition = defaultPartition(state);
            }
            // A count per node (CoreCnt=2,1) takes a free node for each.
            boolean perNode =
                    spec.nodeCount() == null && !spec.cores().perNode().isEmpty();
            if (spec.nodeCount() != null && spec.cores().count() != null) {
                // NodeCnt= with CoreCnt=: Slurm 22.05's count over the nodes (compat 290, 291).
                probe = CountedCores.hold(
                        state,
                        reservation(name, id, start, end, List.of(), partition, users, accounts, flags, state),
                        spec.nodeCount(),
                        spec.cores().perNode().isEmpty()
                                ? List.of(spec.cores().count())
                                : spec.cores().perNode(),
                        open(state, partition, start, end, flags, now));
                nodes = probe.nodes();
            } else if (spec.nodeCount() == null && spec.cores().count() != null && !perNode) {
                // CoreCnt alone: free cores node by node (Slurm 22.05, compat 170, 260).
                probe = PartialCores.spread(
                        state,
                        reservation(name, id, start, end, List.of(), partition, users, accounts, flags, state),
                        spec.cores().count(),
                        open(state, partition, start, end, flags, now));
                nodes = probe.nodes();
            } else {
                int count = spec.nodeCount() != null
                        ? spec.nodeCount()
                        : perNode ? spec.cores().perNode().size() : 1;
                nodes = pick(state, partition, count, 0, start, end, flags, now, "", List.of());
                probe = reservation(name, id, start, end, nodes, partition, users, accounts, flags, state);
                if (spec.nodeCount() == null) {
                    probe = PartialCores.hold(
                            state, probe, spec.cores().count(), spec.cores().perNode(), partition);
                }
            }
        }
        Reservation old = state.reservations().byName().get(name);
        if (old != null && !old.ended(now)) {
            // A name in use by one that does not overlap it (Slurm 22.05's words, compat 186).
            throw new SlurmException(ErrorCode.RESERVATION_NAME_DUP);
        }
        return new ControlResult<>(
                List.of(new StateRecord.ReservationSaved(probe.withLicenses(licenses), now)),
                List.of(),
                List.of(),
                name);
    }

    /** Changes what the spec gives, keeps the rest; the result must pass the same checks. */
    public static ControlResult<Void> update(
            ClusterView state, Caller caller, ReservationSpec spec, Directory directory, long now) {
        return ReservationUpdate.update(state, caller, spec, directory, now);
    }

    public static ControlResult<Void> delete(ClusterView state, Caller caller, String name, long now) {
        requireOperator(caller);
        // One that has ended but is still kept (until the periodic pass) may be deleted too, as
        // in Slurm 22.05 (compat 238).
        Reservation r = Optional.ofNullable(state.reservations().byName().get(name))
                .orElseThrow(() -> new SlurmException(ErrorCode.RESERVATION_INVALID));
        for (Job job : state.jobs()) {
            if ((job.isPending() || job.isRunning())
                    && job.request().reservation().equals(r.name())) {
                throw new SlurmException(ErrorCode.RESERVATION_BUSY);
            }
        }
        return new ControlResult<>(
                List.of(new StateRecord.ReservationDeleted(r.name(), now)), List.of(), List.of(), null);
    }

    private static Reservation reservation(
            String name,
            int id,
            long start,
            long end,
            List<String> nodes,
            String partition,
            Users users,
            List<String> accounts,
            Set<ReservationFlag> flags,
            ClusterView state) {
        return new Reservation(
                name,
                id,
                start,
                end,
                Reservation.Holding.whole(nodes, partition, cores(state, nodes)),
                new Reservation.Access(users.names(), users.excluded(), accounts),
                flags);
    }
}
