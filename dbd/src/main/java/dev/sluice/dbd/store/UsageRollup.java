package dev.sluice.dbd.store;

import static java.util.Objects.requireNonNull;

import dev.sluice.dbd.model.HourlyUsage;
import dev.sluice.dbd.model.TresCounts;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The hourly rollup: turns job rows and the cluster's TRES periods into {@code usage_assoc_hour},
 * {@code usage_wckey_hour} and {@code usage_cluster_hour} rows ({@link HourlyUsage} does the arithmetic). Each cluster
 * keeps a mark, the first hour not rolled yet; a rollup rolls every complete hour from the mark
 * to the clock's last complete hour, a day per transaction, replacing whatever rows those hours
 * had, so re-rolling an hour never counts twice. The mark row is locked while an hour range is
 * rolled, and {@link AccountingStore} moves it back (under the same lock) when a record changes
 * an hour already rolled.
 */
public final class UsageRollup {
    private static final Logger log = LoggerFactory.getLogger(UsageRollup.class);
    private static final long CHUNK = 24 * HourlyUsage.HOUR;

    private final DataSource ds;
    private final InstantSource clock;

    public UsageRollup(DataSource ds, InstantSource clock) {
        this.ds = requireNonNull(ds, "ds is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** Rolls every cluster up to the clock's last complete hour; answers the hours rolled. */
    public long rollUp() throws SQLException {
        return rollUp(null);
    }

    /** Rolls one cluster ({@code null}: all) up to the clock's last complete hour. */
    public long rollUp(String only) throws SQLException {
        return rollUp(only, clock.instant());
    }

    /** Rolls one cluster ({@code null}: all) up to the last hour complete at {@code now}. */
    public long rollUp(String only, Instant now) throws SQLException {
        long through = HourlyUsage.floorHour(now.getEpochSecond());
        List<long[]> clusters = new ArrayList<>();
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT id, created_at, name FROM clusters ORDER BY id");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                if (only == null || only.equals(rs.getString(3))) {
                    clusters.add(new long[] {rs.getLong(1), rs.getLong(2)});
                }
            }
            c.commit();
        }
        long hours = 0;
        for (long[] cluster : clusters) {
            hours += rollCluster(cluster[0], HourlyUsage.floorHour(cluster[1]), through);
        }
        if (hours > 0) {
            log.info("usage rollup: {} cluster-hours rolled up to {}", hours, through);
        }
        return hours;
    }

    /** Moves a cluster's mark back to the hour of {@code time} when it is past it. */
    static void rewind(Connection c, long clusterId, long time) throws SQLException {
        long hour = HourlyUsage.floorHour(time);
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE usage_rollup_mark SET rolled_through = ? WHERE cluster_id = ? AND rolled_through > ?")) {
            ps.setLong(1, hour);
            ps.setLong(2, clusterId);
            ps.setLong(3, hour);
            ps.executeUpdate();
        }
    }

    /**
     * Hours before the cluster registered with this database ({@code created}) are never rolled:
     * as in slurmdbd, usage starts when accounting for the cluster does.
     */
    private long rollCluster(long clusterId, long created, long through) throws SQLException {
        long hours = 0;
        while (true) {
            try (Connection c = ds.getConnection()) {
                try {
                    Long mark = lockMark(c, clusterId);
                    long from = Math.max(created, mark != null ? mark : firstHour(c, clusterId, through));
                    if (from >= through) {
                        if (mark == null) {
                            insertMark(c, clusterId, through);
                        }
                        c.commit();
                        return hours;
                    }
                    long to = Math.min(from + CHUNK, through);
                    roll(c, clusterId, from, to);
                    if (mark == null) {
                        insertMark(c, clusterId, to);
                    } else {
                        try (PreparedStatement ps = c.prepareStatement(
                                "UPDATE usage_rollup_mark SET rolled_through = ? WHERE cluster_id = ?")) {
                            ps.setLong(1, to);
                            ps.setLong(2, clusterId);
                            ps.executeUpdate();
                        }
                    }
                    c.commit();
                    hours += (to - from) / HourlyUsage.HOUR;
                } catch (SQLException | RuntimeException e) {
                    c.rollback();
                    throw e;
                }
            }
        }
    }

    private static Long lockMark(Connection c, long clusterId) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("SELECT rolled_through FROM usage_rollup_mark WHERE cluster_id = ? FOR UPDATE")) {
            ps.setLong(1, clusterId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : null;
            }
        }
    }

    private static void insertMark(Connection c, long clusterId, long through) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("INSERT INTO usage_rollup_mark (cluster_id, rolled_through) VALUES (?, ?)")) {
            ps.setLong(1, clusterId);
            ps.setLong(2, through);
            ps.executeUpdate();
        }
    }

    /** The hour of the cluster's first job start or size report; {@code through} when none. */
    private static long firstHour(Connection c, long clusterId, long through) throws SQLException {
        long first = through;
        try (PreparedStatement ps =
                c.prepareStatement("SELECT MIN(start_time) FROM jobs WHERE cluster_id = ? AND start_time > 0")) {
            ps.setLong(1, clusterId);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next() && rs.getObject(1) != null) {
                    first = Math.min(first, rs.getLong(1));
                }
            }
        }
        try (PreparedStatement ps =
                c.prepareStatement("SELECT MIN(time_start) FROM cluster_tres_periods WHERE cluster_id = ?")) {
            ps.setLong(1, clusterId);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next() && rs.getObject(1) != null) {
                    first = Math.min(first, rs.getLong(1));
                }
            }
        }
        return HourlyUsage.floorHour(first);
    }

    /** Replaces the rows of hours {@code [from, to)} inside the caller's transaction. */
    private static void roll(Connection c, long clusterId, long from, long to) throws SQLException {
        TresCatalog tres = TresCatalog.load(c);
        List<HourlyUsage.JobSpan> jobs = new ArrayList<>();
        // The same jobs by wckey: HourlyUsage's association key then holds the wckey's name.
        List<HourlyUsage.JobSpan> byWckey = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT account, user_name, start_time, end_time, tres_alloc,"
                + " wckey"
                + " FROM jobs WHERE cluster_id = ? AND start_time > 0 AND start_time < ?"
                + " AND (end_time = 0 OR end_time > ?)")) {
            ps.setLong(1, clusterId);
            ps.setLong(2, to);
            ps.setLong(3, from);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    HourlyUsage.JobSpan span = new HourlyUsage.JobSpan(
                            rs.getString(1),
                            rs.getString(2),
                            rs.getLong(3),
                            rs.getLong(4),
                            counts(rs.getString(5), tres));
                    jobs.add(span);
                    String wckey = wckeyName(rs.getString(6));
                    if (!wckey.isEmpty()) {
                        byWckey.add(
                                new HourlyUsage.JobSpan(wckey, span.user(), span.start(), span.end(), span.alloc()));
                    }
                }
            }
        }
        List<HourlyUsage.TresPeriod> periods = new ArrayList<>();
        try (PreparedStatement ps =
                c.prepareStatement("SELECT time_start, time_end, tres, down_tres FROM cluster_tres_periods"
                        + " WHERE cluster_id = ? AND time_start < ? AND (time_end = 0 OR time_end > ?)")) {
            ps.setLong(1, clusterId);
            ps.setLong(2, to);
            ps.setLong(3, from);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    periods.add(new HourlyUsage.TresPeriod(
                            rs.getLong(1),
                            rs.getLong(2),
                            counts(rs.getString(3), tres),
                            counts(rs.getString(4), tres)));
                }
            }
        }
        for (String table : List.of("usage_assoc_hour", "usage_cluster_hour", "usage_wckey_hour")) {
            try (PreparedStatement ps = c.prepareStatement(
                    "DELETE FROM " + table + " WHERE cluster_id = ? AND time_start >= ? AND time_start < ?")) {
                ps.setLong(1, clusterId);
                ps.setLong(2, from);
                ps.setLong(3, to);
                ps.executeUpdate();
            }
        }
        try (PreparedStatement assoc = c.prepareStatement(
                        "INSERT INTO usage_assoc_hour"
                                + " (cluster_id, time_start, account, user_name, tres_id, alloc_secs) VALUES (?, ?, ?, ?, ?, ?)");
                PreparedStatement cluster = c.prepareStatement("INSERT INTO usage_cluster_hour (cluster_id, time_start,"
                        + " tres_id, tres_count, alloc_secs, down_secs, pdown_secs, idle_secs, plan_secs, over_secs)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (HourlyUsage.Hour h : HourlyUsage.compute(from, to, jobs, periods)) {
                for (Map.Entry<HourlyUsage.AssocKey, Map<String, Long>> e :
                        h.assocs().entrySet()) {
                    for (Map.Entry<String, Long> t : e.getValue().entrySet()) {
                        if (t.getValue() == 0) {
                            continue;
                        }
                        assoc.setLong(1, clusterId);
                        assoc.setLong(2, h.start());
                        assoc.setString(3, e.getKey().account());
                        assoc.setString(4, e.getKey().user());
                        assoc.setInt(5, tres.idOf(c, t.getKey()));
                        assoc.setLong(6, t.getValue());
                        assoc.addBatch();
                    }
                }
                for (Map.Entry<String, HourlyUsage.ClusterHour> e : h.cluster().entrySet()) {
                    HourlyUsage.ClusterHour u = e.getValue();
                    int i = 1;
                    cluster.setLong(i++, clusterId);
                    cluster.setLong(i++, h.start());
                    cluster.setInt(i++, tres.idOf(c, e.getKey()));
                    cluster.setLong(i++, u.count());
                    cluster.setLong(i++, u.alloc());
                    cluster.setLong(i++, u.down());
                    cluster.setLong(i++, u.pdown());
                    cluster.setLong(i++, u.idle());
                    cluster.setLong(i++, u.plan());
                    cluster.setLong(i, u.over());
                    cluster.addBatch();
                }
            }
            assoc.executeBatch();
            cluster.executeBatch();
        }
        insertWckeys(c, clusterId, tres, HourlyUsage.compute(from, to, byWckey, List.of()));
    }

    private static void insertWckeys(Connection c, long clusterId, TresCatalog tres, List<HourlyUsage.Hour> hours)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO usage_wckey_hour"
                + " (cluster_id, time_start, wckey, user_name, tres_id, alloc_secs) VALUES (?, ?, ?, ?, ?, ?)")) {
            for (HourlyUsage.Hour h : hours) {
                for (Map.Entry<HourlyUsage.AssocKey, Map<String, Long>> e :
                        h.assocs().entrySet()) {
                    for (Map.Entry<String, Long> t : e.getValue().entrySet()) {
                        if (t.getValue() == 0) {
                            continue;
                        }
                        ps.setLong(1, clusterId);
                        ps.setLong(2, h.start());
                        ps.setString(3, e.getKey().account());
                        ps.setString(4, e.getKey().user());
                        ps.setInt(5, tres.idOf(c, t.getKey()));
                        ps.setLong(6, t.getValue());
                        ps.addBatch();
                    }
                }
            }
            ps.executeBatch();
        }
    }

    /**
     * The wckey a job's usage counts under: its own, or the default it took ({@code *NAME});
     * empty when it has none ({@code *}: its user had no default; {@code ''}: not tracked).
     */
    static String wckeyName(String stored) {
        if (stored == null) {
            return "";
        }
        return stored.startsWith("*") ? stored.substring(1) : stored;
    }

    private static TresCounts counts(String idForm, TresCatalog tres) {
        try {
            return TresCounts.parseIdForm(idForm, tres::nameOf);
        } catch (IllegalArgumentException e) {
            log.warn("usage rollup: unreadable stored TRES \"{}\" skipped", idForm);
            return TresCounts.EMPTY;
        }
    }
}
