package dev.sluice.ctld.control;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.hostlist.HostList;
import dev.sluice.common.slurm.ReservationFlag;
import dev.sluice.common.slurm.SlurmLimits;
import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.Node;
import dev.sluice.ctld.state.Partition;
import dev.sluice.ctld.state.Reservation;
import dev.sluice.ctld.state.StateRecord;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
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
 */
public final class ReservationControl {
    /** What the controller knows of users and accounts (the edge reads them). */
    public record Directory(Predicate<String> knownUser, Predicate<String> knownAccount) {}

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
            probe = PartialCores.hold(
                    state,
                    reservation(name, id, start, end, nodes, partition, users, accounts, flags, state),
                    spec.cores().count(),
                    spec.cores().perNode(),
                    partition.isEmpty() ? defaultPartition(state) : partition);
            if (overlapsAnother(state, probe, now, false)) {
                throw new SlurmException(ErrorCode.RESERVATION_OVERLAP);
            }
            if (!probe.partial() && !probe.has(ReservationFlag.IGNORE_JOBS) && busy(state, nodes, start, now)) {
                throw new SlurmException(ErrorCode.NODES_BUSY);
            }
        } else {
            if (partition.isEmpty()) {
                partition = defaultPartition(state);
            }
            // CoreCnt alone: free whole nodes until they give that many cores, then only that many
            // of their cores are held (Slurm 22.05: Nodes=n1 CoreCnt=2, CoreIDs=0-1).
            // A count per node (CoreCnt=2,1) takes a node for each.
            boolean perNode =
                    spec.nodeCount() == null && !spec.cores().perNode().isEmpty();
            int count = spec.nodeCount() != null
                    ? spec.nodeCount()
                    : perNode ? spec.cores().perNode().size() : spec.cores().count() != null ? 0 : 1;
            int cores = spec.nodeCount() == null && spec.cores().count() != null && !perNode
                    ? spec.cores().count()
                    : 0;
            nodes = pick(state, partition, count, cores, start, end, flags, now, "", List.of());
            probe = reservation(name, id, start, end, nodes, partition, users, accounts, flags, state);
            if (spec.nodeCount() == null) {
                probe = PartialCores.hold(
                        state, probe, spec.cores().count(), spec.cores().perNode(), partition);
            }
        }
        Reservation old = state.reservations().byName().get(name);
        if (old != null && !old.ended(now)) {
            // A name in use by one that does not overlap it (Slurm 22.05's words, compat 186).
            throw new SlurmException(ErrorCode.RESERVATION_NAME_DUP);
        }
        return new ControlResult<>(List.of(new StateRecord.ReservationSaved(probe, now)), List.of(), List.of(), name);
    }

    /** Changes what the spec gives, keeps the rest; the result must pass the same checks. */
    public static ControlResult<Void> update(
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
        Reservation next = new Reservation(
                old.name(),
                old.id(),
                start,
                end,
                Reservation.Holding.whole(nodes, partition, cores(state, nodes)),
                new Reservation.Access(users.names(), users.excluded(), accounts),
                flags);
        if (overlapsAnother(state, next, now, true)) {
            throw new SlurmException(ErrorCode.RESERVATION_OVERLAP);
        }
        return new ControlResult<>(List.of(new StateRecord.ReservationSaved(next, now)), List.of(), List.of(), null);
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

    private static void requireOperator(Caller caller) {
        if (!caller.isOperator()) {
            throw new SlurmException(ErrorCode.USER_ID_MISSING);
        }
    }

    private static long endOf(long start, ReservationSpec spec) {
        if (spec.durationMinutes() != null) {
            long minutes = spec.durationMinutes();
            // UNLIMITED: Slurm's reservations then last a year.
            return start + (minutes >= SlurmLimits.INFINITE ? 365L * 86_400 : minutes * 60);
        }
        if (spec.end() == null || spec.end() <= start) {
            throw new SlurmException(ErrorCode.INVALID_TIME_VALUE);
        }
        return spec.end();
    }

    private static Set<ReservationFlag> with(Set<ReservationFlag> flags) {
        Set<ReservationFlag> out = EnumSet.noneOf(ReservationFlag.class);
        out.addAll(flags);
        return out;
    }

    /**
     * Slurm's reading of {@code Flags=}: a {@code -} before an item takes it away, and every item
     * after it too ({@code -DAILY,WEEKLY} takes both away, as the real cluster shows).
     */
    private static Set<ReservationFlag> flags(Set<ReservationFlag> into, List<String> typed) {
        boolean remove = false;
        for (String item : typed) {
            remove |= item.startsWith("-");
            ReservationFlag f = ReservationFlag.parse(item.startsWith("-") ? item.substring(1) : item)
                    .orElseThrow(() -> new SlurmException(ErrorCode.INVALID_ARGUMENT));
            if (remove) {
                into.remove(f);
            } else {
                into.add(f);
            }
        }
        return into;
    }

    private record Users(List<String> names, boolean excluded) {}

    private static Users users(String typed, Directory directory) {
        if (typed == null || typed.isEmpty()) {
            return new Users(List.of(), false);
        }
        List<String> names = new ArrayList<>();
        int minus = 0;
        String[] items = typed.split(",");
        for (String item : items) {
            String name = item.strip();
            if (name.startsWith("-")) {
                minus++;
                name = name.substring(1);
            }
            if (name.isEmpty() || !directory.knownUser().test(name)) {
                throw new SlurmException(ErrorCode.USER_ID_MISSING);
            }
            names.add(name);
        }
        if (minus != 0 && minus != items.length) {
            // Users=a,-b: Slurm takes a list of users or a list of exclusions, not both.
            throw new SlurmException(ErrorCode.USER_ID_MISSING);
        }
        return new Users(List.copyOf(new LinkedHashSet<>(names)), minus != 0);
    }

    private static List<String> accounts(String typed, Directory directory) {
        if (typed == null || typed.isEmpty()) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (String item : typed.split(",")) {
            String account = item.strip();
            if (account.isEmpty() || !directory.knownAccount().test(account)) {
                throw new SlurmException(ErrorCode.INVALID_ACCOUNT);
            }
            out.add(account);
        }
        return List.copyOf(new LinkedHashSet<>(out));
    }

    private static String partition(ClusterView state, String typed) {
        if (typed == null || typed.isEmpty()) {
            return "";
        }
        return state.partitions().stream()
                .filter(p -> p.name().equals(typed))
                .findFirst()
                .map(Partition::name)
                .orElseThrow(() -> new SlurmException(ErrorCode.INVALID_PARTITION_NAME));
    }

    /** {@code Nodes=}: every node named must exist; ALL is every node. Sets SPEC_NODES (and ALL_NODES). */
    private static List<String> named(ClusterView state, String typed, Set<ReservationFlag> flags) {
        List<String> all = state.nodes().stream().map(Node::name).toList();
        flags.add(ReservationFlag.SPEC_NODES);
        if (typed.equalsIgnoreCase("ALL")) {
            flags.add(ReservationFlag.ALL_NODES);
            return all;
        }
        Set<String> asked;
        try {
            asked = new LinkedHashSet<>(HostList.expand(typed));
        } catch (IllegalArgumentException e) {
            throw new SlurmException(ErrorCode.INVALID_NODE_NAME);
        }
        if (!all.containsAll(asked)) {
            throw new SlurmException(ErrorCode.INVALID_NODE_NAME);
        }
        return all.stream().filter(asked::contains).toList();
    }

    /**
     * {@code NodeCnt=} in an update: fewer keeps its first nodes, whatever runs on the others; more
     * adds free nodes of its partition as at creation ("Requested nodes are busy" when there are
     * not enough), its own jobs staying where they are (Slurm 22.05, compat 257).
     */
    private static List<String> recount(
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

    /** {@code NodeCnt=}: the first nodes of the partition that nothing else holds then. */
    private static List<String> pick(
            ClusterView state,
            String partition,
            int count,
            int cores,
            long start,
            long end,
            Set<ReservationFlag> flags,
            long now,
            String self,
            List<String> skip) {
        Partition p = state.partitions().stream()
                .filter(x -> x.name().equals(partition))
                .findFirst()
                .orElseThrow(() -> new SlurmException(ErrorCode.INVALID_PARTITION_NAME));
        boolean mayOverlap = flags.contains(ReservationFlag.MAINT) || flags.contains(ReservationFlag.OVERLAP);
        List<String> out = new ArrayList<>();
        int got = 0;
        for (String node : p.nodes()) {
            if (cores > 0 ? got >= cores : out.size() == count) {
                break;
            }
            Node n = state.node(node);
            if (n == null || skip.contains(node) || !state.view(n).isSchedulable()) {
                continue;
            }
            boolean held = state.reservations().current(now).stream()
                    .anyMatch(r -> !r.name().equals(self) && r.nodes().contains(node) && r.overlaps(start, end));
            if (held && !mayOverlap) {
                continue;
            }
            if (!flags.contains(ReservationFlag.IGNORE_JOBS) && busy(state, List.of(node), start, now)) {
                continue;
            }
            out.add(node);
            got += n.hardware().cpus() / n.hardware().threadsPerCore();
        }
        if (cores > 0 ? got < cores : out.size() < count || count == 0) {
            throw new SlurmException(ErrorCode.NODES_BUSY);
        }
        return out;
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

    private static String defaultPartition(ClusterView state) {
        return state.partitions().stream()
                .filter(Partition::isDefault)
                .map(Partition::name)
                .findFirst()
                .orElseThrow(() -> new SlurmException(ErrorCode.DEFAULT_PARTITION_NOT_SET));
    }

    private static int cores(ClusterView state, List<String> nodes) {
        int cores = 0;
        for (String name : nodes) {
            Node n = state.node(name);
            if (n != null) {
                cores += n.hardware().cpus() / n.hardware().threadsPerCore();
            }
        }
        return cores;
    }

    /**
     * Whether another reservation holds one of its nodes at a time it does (MAINT, OVERLAP may).
     * A new one is checked against every other, one of its own name too (Slurm answers "overlaps"
     * for a second {@code r1} on {@code r1}'s nodes); an update against all but itself.
     */
    static boolean overlapsAnother(ClusterView state, Reservation r, long now, boolean update) {
        if (r.has(ReservationFlag.MAINT) || r.has(ReservationFlag.OVERLAP)) {
            return false;
        }
        for (Reservation other : state.reservations().current(now)) {
            if (update && other.name().equals(r.name())) {
                continue;
            }
            boolean shared = other.nodes().stream().anyMatch(r.nodes()::contains);
            if (shared && (other.overlaps(r.start(), r.end()) || r.overlaps(other.start(), other.end()))) {
                return true;
            }
        }
        return false;
    }

    /** Whether a job runs on one of the nodes and would still run at {@code start}. */
    private static boolean busy(ClusterView state, List<String> nodes, long start, long now) {
        for (Job job : state.jobs()) {
            if (!job.isRunning()) {
                continue;
            }
            long limit = job.terms().timeLimitMinutes();
            long end = limit >= dev.sluice.ctld.state.JobRequest.TIME_NOT_SET
                    ? Long.MAX_VALUE
                    : job.run().startTime() + limit * 60;
            if (end <= start) {
                continue;
            }
            if (job.allocation().nodeNames().stream().anyMatch(nodes::contains)) {
                return true;
            }
        }
        return false;
    }
}
