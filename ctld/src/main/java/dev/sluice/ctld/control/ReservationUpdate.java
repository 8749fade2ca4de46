package dev.sluice.ctld.control;

import static dev.sluice.ctld.control.ReservationNodes.cores;
import static dev.sluice.ctld.control.ReservationNodes.named;
import static dev.sluice.ctld.control.ReservationNodes.overlapsAnother;
import static dev.sluice.ctld.control.ReservationNodes.pick;
import static dev.sluice.ctld.control.ReservationTerms.accounts;
import static dev.sluice.ctld.control.ReservationTerms.defaultPartition;
import static dev.sluice.ctld.control.ReservationTerms.endOf;
import static dev.sluice.ctld.control.ReservationTerms.flags;
import static dev.sluice.ctld.control.ReservationTerms.partition;
import static dev.sluice.ctld.control.ReservationTerms.requireOperator;
import static dev.sluice.ctld.control.ReservationTerms.users;
import static dev.sluice.ctld.control.ReservationTerms.with;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.slurm.Licenses;
import dev.sluice.common.slurm.ReservationFlag;
import dev.sluice.ctld.control.ReservationControl.Directory;
import dev.sluice.ctld.control.ReservationTerms.Users;
import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.Node;
import dev.sluice.ctld.state.Reservation;
import dev.sluice.ctld.state.StateRecord;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code scontrol update reservation}: what the spec gives replaces or edits ({@code +=},
 * {@code -=}) what the reservation has, the rest is kept, and the result must pass the checks a
 * new one passes.
 */
final class ReservationUpdate {
    private ReservationUpdate() {}

    /** Changes what the spec gives, keeps the rest; the result must pass the same checks. */
    static ControlResult<Void> update(
            ClusterView state, Caller caller, ReservationSpec spec, Directory directory, long now) {
        requireOperator(caller);
        // One whose window has ended but that is still kept (until the periodic pass) may be
        // given a new end, and is then active again (Slurm 22.05, compat 257).
        Reservation kept = Optional.ofNullable(
                        state.reservations().byName().get(spec.name() == null ? "" : spec.name()))
                .orElseThrow(() -> new SlurmException(ErrorCode.RESERVATION_INVALID));
        Reservation old = kept.ended(now) ? kept : kept.window(now);
        long start = spec.start() == null ? old.start() : spec.start();
        long end;
        if (spec.end() != null || spec.durationMinutes() != null) {
            end = endOf(start, spec);
            // A window made to end now or before, Duration=0 or EndTime=now included, is refused.
            if (end <= start || end <= now) {
                throw new SlurmException(ErrorCode.INVALID_TIME_VALUE);
            }
        } else {
            end = start + (old.end() - old.start());
        }
        Set<ReservationFlag> flags = flags(EnumSet.copyOf(with(old.flags())), spec.flags());
        Users users =
                spec.users() == null ? new Users(old.users(), old.usersExcluded()) : users(spec.users(), directory);
        users = new Users(
                ReservationEdits.edit(
                        users.names(),
                        spec.change().added().users(),
                        spec.change().removed().users(),
                        name -> {
                            if (!directory.knownUser().test(name)) {
                                throw new SlurmException(ErrorCode.USER_ID_MISSING);
                            }
                        }),
                users.excluded());
        List<String> accounts = spec.accounts() == null ? old.accounts() : accounts(spec.accounts(), directory);
        accounts = ReservationEdits.edit(
                accounts,
                spec.change().added().accounts(),
                spec.change().removed().accounts(),
                account -> {
                    if (!directory.knownAccount().test(account)) {
                        throw new SlurmException(ErrorCode.INVALID_ACCOUNT);
                    }
                });
        Licenses licenses = licenses(state, old, spec, directory);
        String partition = spec.partition() == null ? old.partition() : partition(state, spec.partition());
        List<String> nodes = spec.nodes() != null
                ? named(state, spec.nodes(), flags)
                : spec.nodeCount() != null
                        ? recount(state, old, spec.nodeCount(), partition, start, end, flags, now)
                        : old.nodes();
        if (spec.nodes() != null) {
            flags.remove(ReservationFlag.ALL_NODES);
            if (spec.nodes().equalsIgnoreCase("ALL")) {
                flags.add(ReservationFlag.ALL_NODES);
            }
            flags.add(ReservationFlag.SPEC_NODES);
        }
        if (users.names().isEmpty() && accounts.isEmpty()) {
            // Users-= of its last user: Slurm 22.05's words (compat 256).
            throw new SlurmException(ErrorCode.RESERVATION_EMPTY);
        }
        if (nodes.isEmpty() && (!flags.contains(ReservationFlag.ANY_NODES) || licenses.isEmpty())) {
            // One of no node must stay ANY_NODES and keep its licenses (Slurm 22.05, compat 285).
            throw new SlurmException(ErrorCode.RESERVATION_INVALID);
        }
        Reservation next = new Reservation(
                old.name(),
                old.id(),
                start,
                end,
                Reservation.Holding.whole(nodes, partition, cores(state, nodes)).withLicenses(licenses),
                new Reservation.Access(users.names(), users.excluded(), accounts),
                flags);
        if (overlapsAnother(state, next, now, true)) {
            throw new SlurmException(ErrorCode.RESERVATION_OVERLAP);
        }
        return new ControlResult<>(List.of(new StateRecord.ReservationSaved(next, now)), List.of(), List.of(), null);
    }

    /**
     * {@code Licenses=} in an update: the new ones, checked as at creation but over the window the
     * update gives ({@code [NO_VAL, NO_VAL)} where it gives none: against the totals alone, as
     * Slurm 22.05 does); empty clears them, but not from one of no node ("Invalid license
     * specification"); none given keeps them.
     */
    private static Licenses licenses(ClusterView state, Reservation old, ReservationSpec spec, Directory directory) {
        if (spec.licenses() == null) {
            return old.licenses();
        }
        if (spec.licenses().isBlank()) {
            boolean noNodes = spec.nodeCount() != null
                    ? spec.nodeCount() == 0
                    : old.nodes().isEmpty();
            if (noNodes) {
                throw new SlurmException(ErrorCode.INVALID_LICENSES);
            }
            return Licenses.NONE;
        }
        return ReservationLicenses.checked(
                spec.licenses(),
                directory.licenses(),
                state,
                old.name(),
                spec.start() == null ? ReservationLicenses.NO_VAL_TIME : spec.start(),
                spec.end() == null ? ReservationLicenses.NO_VAL_TIME : spec.end());
    }

    /**
     * {@code NodeCnt=} in an update: fewer keeps its first nodes, whatever runs on the others; more
     * adds free nodes of its partition as at creation ("Requested nodes are busy" when there are
     * not enough), its own jobs staying where they are (Slurm 22.05, compat 257).
     */
    static List<String> recount(
            ClusterView state,
            Reservation old,
            int count,
            String partition,
            long start,
            long end,
            Set<ReservationFlag> flags,
            long now) {
        if (count == 0) {
            // NodeCnt=0: Slurm 22.05 answers so (compat 256).
            throw new SlurmException(ErrorCode.RESERVATION_INVALID);
        }
        List<String> have = old.nodes();
        if (count <= have.size()) {
            return List.copyOf(have.subList(0, count));
        }
        String in = partition.isEmpty() ? defaultPartition(state) : partition;
        List<String> more = pick(state, in, count - have.size(), 0, start, end, flags, now, old.name(), have);
        List<String> all = new ArrayList<>(have);
        all.addAll(more);
        Set<String> chosen = new LinkedHashSet<>(all);
        return state.nodes().stream().map(Node::name).filter(chosen::contains).toList();
    }
}
