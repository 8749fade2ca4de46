package dev.sluice.dbd.model;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Splits allocations into hours, as slurmdbd's hourly rollup does: per hour, each user
 * association's allocated TRES-seconds (TRES count times the seconds of that hour the job held
 * it), and per TRES of the cluster the seconds available (its size, from the cluster's TRES
 * periods), allocated, over-committed and idle. Pure.
 *
 * <p>A job still running (end 0) counts to the end of every hour asked for; only complete
 * hours are rolled, so that is "up to now's last complete hour". Down time is the TRES of nodes
 * DOWN or DRAINED; planned-down and reserved ("planned") time are not tracked yet and are 0.
 */
public final class HourlyUsage {
    public static final long HOUR = 3600;

    private HourlyUsage() {}

    /** A job's allocation: from {@code start} to {@code end} (0 while it runs). */
    public record JobSpan(String account, String user, long start, long end, TresCounts alloc) {
        public JobSpan {
            requireNonNull(account, "account is null");
            requireNonNull(user, "user is null");
            requireNonNull(alloc, "alloc is null");
        }
    }

    /**
     * The cluster's TRES totals from {@code start} to {@code end} (0 while current), and the part
     * of them on nodes down or drained.
     */
    public record TresPeriod(long start, long end, TresCounts tres, TresCounts down) {
        public TresPeriod {
            requireNonNull(tres, "tres is null");
            requireNonNull(down, "down is null");
        }

        public TresPeriod(long start, long end, TresCounts tres) {
            this(start, end, tres, TresCounts.EMPTY);
        }
    }

    public record AssocKey(String account, String user) {}

    /** One TRES of the cluster over one hour, in TRES-seconds; {@code count} is its largest size. */
    public record ClusterHour(long count, long alloc, long down, long pdown, long idle, long plan, long over) {
        /** What sreport calls "Reported": everything but over-commit. */
        public long reported() {
            return alloc + down + pdown + idle + plan;
        }
    }

    /** One rolled hour. Maps are sorted, so output order is stable. */
    public record Hour(long start, Map<AssocKey, Map<String, Long>> assocs, Map<String, ClusterHour> cluster) {}

    public static long floorHour(long epochSeconds) {
        return Math.floorDiv(epochSeconds, HOUR) * HOUR;
    }

    /**
     * The hours {@code [from, to)} (whole hours), each one listed even when nothing ran in it.
     *
     * @throws IllegalArgumentException when the bounds are not whole hours or out of order
     */
    public static List<Hour> compute(long from, long to, List<JobSpan> jobs, List<TresPeriod> periods) {
        if (from % HOUR != 0 || to % HOUR != 0 || to < from) {
            throw new IllegalArgumentException("not a range of whole hours: " + from + " - " + to);
        }
        int n = (int) ((to - from) / HOUR);
        List<Map<AssocKey, Map<String, Long>>> assocs = new ArrayList<>(n);
        List<Map<String, Long>> totals = new ArrayList<>(n);
        List<Map<String, Long>> counts = new ArrayList<>(n);
        List<Map<String, Long>> downs = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            assocs.add(new TreeMap<>(
                    java.util.Comparator.comparing(AssocKey::account).thenComparing(AssocKey::user)));
            totals.add(new TreeMap<>());
            counts.add(new TreeMap<>());
            downs.add(new TreeMap<>());
        }
        for (JobSpan j : jobs) {
            if (j.start() <= 0) {
                continue;
            }
            long end = j.end() == 0 ? Long.MAX_VALUE : j.end();
            forEachHour(from, to, j.start(), end, (i, secs) -> {
                Map<String, Long> m =
                        assocs.get(i).computeIfAbsent(new AssocKey(j.account(), j.user()), k -> new TreeMap<>());
                j.alloc().counts().forEach((tres, count) -> m.merge(tres, count * secs, Long::sum));
            });
        }
        for (TresPeriod p : periods) {
            long end = p.end() == 0 ? Long.MAX_VALUE : p.end();
            forEachHour(from, to, p.start(), end, (i, secs) -> {
                p.tres().counts().forEach((tres, count) -> {
                    totals.get(i).merge(tres, count * secs, Long::sum);
                    counts.get(i).merge(tres, count, Math::max);
                });
                p.down().counts().forEach((tres, count) -> downs.get(i).merge(tres, count * secs, Long::sum));
            });
        }
        List<Hour> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Map<String, Long> alloc = new TreeMap<>();
            assocs.get(i).values().forEach(m -> m.forEach((tres, secs) -> alloc.merge(tres, secs, Long::sum)));
            TreeSet<String> names = new TreeSet<>(alloc.keySet());
            names.addAll(totals.get(i).keySet());
            Map<String, ClusterHour> cluster = new TreeMap<>();
            for (String tres : names) {
                long a = alloc.getOrDefault(tres, 0L);
                long total = totals.get(i).getOrDefault(tres, 0L);
                long down = Math.min(downs.get(i).getOrDefault(tres, 0L), total);
                // Without a known size the allocation is all that was reported; beyond what was
                // up it is over-commit, as slurmdbd counts it. Idle is what is left.
                long used = total > 0 ? Math.min(a, total - down) : a;
                long idle = total > 0 ? total - down - used : 0;
                cluster.put(
                        tres, new ClusterHour(counts.get(i).getOrDefault(tres, 0L), used, down, 0, idle, 0, a - used));
            }
            out.add(new Hour(from + i * HOUR, assocs.get(i), cluster));
        }
        return out;
    }

    @FunctionalInterface
    private interface HourSink {
        void add(int index, long seconds);
    }

    private static void forEachHour(long from, long to, long start, long end, HourSink sink) {
        long s = Math.max(start, from);
        long e = Math.min(end, to);
        for (long h = floorHour(s); h < e; h += HOUR) {
            long secs = Math.min(e, h + HOUR) - Math.max(s, h);
            if (secs > 0) {
                sink.add((int) ((h - from) / HOUR), secs);
            }
        }
    }
}
