package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.slurm.Licenses;
import dev.sluice.common.slurm.ReservationFlag;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * An advance reservation ({@code scontrol create reservation}): whole nodes held over a window
 * {@code [start, end)} for some users and/or accounts. An HOURLY, DAILY, WEEKDAY, WEEKEND or
 * WEEKLY one repeats: once a window ends the next begins ({@link #next}), and the controller moves
 * it there ({@link #window}), as Slurm does.
 *
 * @param id the number it got when created (Slurm names an unnamed one {@code user_id})
 * @param start its (current) window's start, epoch seconds
 * @param end its (current) window's end
 */
public record Reservation(
        String name, int id, long start, long end, Holding holding, Access access, Set<ReservationFlag> flags) {

    private static final long HOUR = 3600;
    private static final long DAY = 24 * HOUR;
    private static final long WEEK = 7 * DAY;

    /**
     * What it holds.
     *
     * @param partition the partition it was made in ({@code PartitionName=}), empty for none
     * @param coreCount every core of its nodes, or of a partial one the cores it holds
     * @param cores a partial-node reservation's cores by node ({@code Nodes=n1 CoreCnt=2}: n1's
     *     cores 0 and 1), in node order; empty when it holds its nodes whole
     * @param licenses {@code Licenses=}: slurm.conf licenses only its jobs may use during its
     *     window (an ANY_NODES one may hold these and no node)
     */
    public record Holding(
            List<String> nodes, String partition, int coreCount, Map<String, List<Integer>> cores, Licenses licenses) {
        public Holding {
            nodes = List.copyOf(nodes);
            requireNonNull(partition, "partition is null");
            requireNonNull(licenses, "licenses is null");
            Map<String, List<Integer>> copy = new LinkedHashMap<>();
            cores.forEach((node, ids) -> copy.put(node, List.copyOf(ids)));
            cores = java.util.Collections.unmodifiableMap(copy);
        }

        /** Nodes (or some of their cores) and no license. */
        public Holding(List<String> nodes, String partition, int coreCount, Map<String, List<Integer>> cores) {
            this(nodes, partition, coreCount, cores, Licenses.NONE);
        }

        /** Its nodes whole. */
        public static Holding whole(List<String> nodes, String partition, int coreCount) {
            return new Holding(nodes, partition, coreCount, Map.of());
        }

        /** The same nodes and cores with these licenses. */
        public Holding withLicenses(Licenses value) {
            return new Holding(nodes, partition, coreCount, cores, value);
        }
    }

    /**
     * Who may use it.
     *
     * @param usersExcluded {@code Users=-a,-b}: every user but these
     */
    public record Access(List<String> users, boolean usersExcluded, List<String> accounts) {
        public Access {
            users = List.copyOf(users);
            accounts = List.copyOf(accounts);
        }

        /**
         * Whether a job of this user and account may run in it. Slurm: with both Users and
         * Accounts given, a job must match both.
         */
        public boolean permits(String user, String account) {
            boolean userOk = users.isEmpty() || (usersExcluded != users.contains(user));
            boolean accountOk = accounts.isEmpty() || accounts.contains(account);
            return userOk && accountOk;
        }
    }

    public Reservation {
        requireNonNull(name, "name is null");
        requireNonNull(holding, "holding is null");
        requireNonNull(access, "access is null");
        flags = flags.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(flags));
        if (end <= start) {
            throw new IllegalArgumentException("a reservation ends after it starts: " + start + ".." + end);
        }
    }

    public List<String> nodes() {
        return holding.nodes();
    }

    public String partition() {
        return holding.partition();
    }

    public int coreCount() {
        return holding.coreCount();
    }

    public Map<String, List<Integer>> cores() {
        return holding.cores();
    }

    public Licenses licenses() {
        return holding.licenses();
    }

    /** The same reservation holding these licenses instead. */
    public Reservation withLicenses(Licenses value) {
        return new Reservation(name, id, start, end, holding.withLicenses(value), access, flags);
    }

    /**
     * How many {@code license}s it keeps from jobs outside it over {@code [from, to)}: all it
     * holds when its window meets that stretch (Slurm 22.05's job_test_lic_resv), however many its
     * own jobs use.
     */
    public long licensesHeld(String license, long from, long to) {
        return overlaps(from, to) ? holding.licenses().count(license) : 0;
    }

    /**
     * What {@code scontrol show licenses} counts as Reserved= of it at {@code now}: its licenses
     * while its window is on, and a FLEX one's always (Slurm 22.05's set_reserved_license_count).
     */
    public long licensesReserved(String license, long now) {
        return has(ReservationFlag.FLEX) || active(now) ? holding.licenses().count(license) : 0;
    }

    /**
     * /**
     * The cores it holds on its nodes ({@code TRES=cpu=}): {@link #coreCount} but for the cores of
     * nodes a {@code NodeCnt= CoreCnt=} pick passed over, which Slurm 22.05 holds and counts in
     * {@code CoreCnt=} only ({@code CountedCores}, compat 291).
     */
    public int coresOnNodes() {
        if (!partial()) {
            return coreCount();
        }
        int beside = 0;
        for (Map.Entry<String, List<Integer>> e : cores().entrySet()) {
            if (!nodes().contains(e.getKey())) {
                beside += e.getValue().size();
            }
        }
        return coreCount() - beside;
    }

    public List<String> users() {
        return access.users();
    }

    public boolean usersExcluded() {
        return access.usersExcluded();
    }

    public List<String> accounts() {
        return access.accounts();
    }

    /**
     * The flags named as the journal and the commands keep them ({@link #flagNames}): one parser
     * for both, so a flag a newer binary wrote fails the same way everywhere.
     *
     * @throws IllegalArgumentException for a name this binary does not know
     */
    public static Set<ReservationFlag> flagsNamed(List<String> names) {
        Set<ReservationFlag> flags = EnumSet.noneOf(ReservationFlag.class);
        for (String f : names) {
            flags.add(ReservationFlag.valueOf(f));
        }
        return flags;
    }

    /** Its flags' names in Slurm's order, as {@link #flagsNamed} reads them back. */
    public List<String> flagNames() {
        Set<ReservationFlag> ordered = EnumSet.noneOf(ReservationFlag.class);
        ordered.addAll(flags);
        return ordered.stream().map(ReservationFlag::name).toList();
    }

    /**
     * A partial reservation's cores by node, in the entries' order, from the journal's or the
     * commands' entries (two message types of one shape).
     */
    public static <T> Map<String, List<Integer>> coresOf(
            List<T> entries, Function<T, String> node, Function<T, List<Integer>> ids) {
        Map<String, List<Integer>> cores = new LinkedHashMap<>();
        for (T c : entries) {
            cores.put(node.apply(c), ids.apply(c));
        }
        return cores;
    }

    public boolean has(ReservationFlag flag) {
        return flags.contains(flag);
    }

    /** Whether it repeats once a window ends (HOURLY, DAILY, WEEKDAY, WEEKEND, WEEKLY). */
    public boolean repeats() {
        return flags.stream().anyMatch(ReservationFlag.REPEATS::contains);
    }

    /**
     * The window current at {@code now}: this one, or for a repeating reservation whose window
     * has passed, the first later one that has not ended.
     */
    public Reservation window(long now) {
        if (!repeats() || end > now) {
            return this;
        }
        // Whole weeks first (every kind of repeat has the same windows a week later), then at
        // most a week's windows one by one.
        long weeks = (now - end) / WEEK;
        Reservation w = weeks == 0 ? this : during(start + weeks * WEEK, end + weeks * WEEK);
        if (has(ReservationFlag.HOURLY) || has(ReservationFlag.DAILY)) {
            long step = has(ReservationFlag.HOURLY) ? HOUR : DAY;
            long steps = Math.max(0, (now - w.end) / step);
            w = w.during(w.start + steps * step, w.end + steps * step);
        }
        while (w.end <= now) {
            w = w.next();
        }
        return w;
    }

    /**
     * The window after this one, by the first of HOURLY, DAILY, WEEKDAY, WEEKEND, WEEKLY it has.
     * WEEKDAY and WEEKEND go by the day the window starts, in UTC (slurmctld goes by its local
     * time: the same where that is UTC, as on the recording machine).
     */
    public Reservation next() {
        long shift;
        if (has(ReservationFlag.HOURLY)) {
            shift = HOUR;
        } else if (has(ReservationFlag.DAILY)) {
            shift = DAY;
        } else if (has(ReservationFlag.WEEKDAY)) {
            DayOfWeek day = dayOf(start);
            shift = day == DayOfWeek.FRIDAY ? 3 * DAY : day == DayOfWeek.SATURDAY ? 2 * DAY : DAY;
        } else if (has(ReservationFlag.WEEKEND)) {
            DayOfWeek day = dayOf(start);
            shift = day == DayOfWeek.SATURDAY ? DAY : (DayOfWeek.SATURDAY.getValue() - day.getValue() + 7) % 7 * DAY;
            if (shift == 0) {
                shift = 6 * DAY;
            }
        } else if (has(ReservationFlag.WEEKLY)) {
            shift = WEEK;
        } else {
            throw new IllegalStateException("a reservation that does not repeat has no next window: " + name);
        }
        return during(start + shift, end + shift);
    }

    private static DayOfWeek dayOf(long epochSecond) {
        return Instant.ofEpochSecond(epochSecond).atZone(ZoneOffset.UTC).getDayOfWeek();
    }

    /** Whether it holds some cores of its nodes rather than the nodes whole. */
    public boolean partial() {
        return !holding.cores().isEmpty();
    }

    /** Over for good: a window that ended and does not repeat. */
    public boolean ended(long now) {
        return !repeats() && end <= now;
    }

    /** Whether its window at {@code now} has begun. */
    public boolean active(long now) {
        Reservation w = window(now);
        return w.start <= now && now < w.end;
    }

    /**
     * Whether it holds its nodes at some moment of {@code [from, to)}: its first window that ends
     * after {@code from} starts before {@code to} (later ones start later still).
     */
    public boolean overlaps(long from, long to) {
        Reservation w = window(from);
        return w.start < to && from < w.end;
    }

    /** Whether a job of this user and account may run in it ({@link Access#permits}). */
    public boolean permits(String user, String account) {
        return access.permits(user, account);
    }

    /** Whether the reservation was made for anybody in particular by user name. */
    public boolean namesUsers() {
        return !access.users().isEmpty();
    }

    /** The same reservation over another window. */
    public Reservation during(long newStart, long newEnd) {
        return new Reservation(name, id, newStart, newEnd, holding, access, flags);
    }
}
