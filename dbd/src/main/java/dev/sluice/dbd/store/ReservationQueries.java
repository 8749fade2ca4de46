package dev.sluice.dbd.store;

import static java.util.Objects.requireNonNull;

import dev.sluice.dbd.model.ReservationUsage;
import dev.sluice.dbd.model.TresCounts;
import dev.sluice.protocol.v1.AccountedReservation;
import dev.sluice.protocol.v1.ReservationQuery;
import dev.sluice.protocol.v1.ReservationReport;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import javax.sql.DataSource;

/**
 * sreport's reservation report: the rows of reservations' history that overlap a window, in the
 * order slurmdbd lists them (cluster, start, name), each with the TRES-seconds its jobs used
 * within it, worked out from the job rows at the time of the query as Slurm 22.05 does (not from
 * the hourly rollups).
 */
final class ReservationQueries {
    private ReservationQueries() {}

    static ReservationReport find(Connection c, ReservationQuery q, long now) throws SQLException {
        TresCatalog tres = TresCatalog.load(c);
        StringBuilder sql = new StringBuilder("SELECT k.name, r.cluster_id, r.resv_id, r.resv_name, r.time_start,"
                + " r.time_end, r.nodes, r.tres, r.flags, r.users, r.accounts FROM reservations r"
                + " JOIN clusters k ON k.id = r.cluster_id WHERE r.time_start < ? AND r.time_end > ?");
        List<String> params = new ArrayList<>();
        in(sql, "k.name", q.getClustersList(), params);
        in(sql, "r.resv_name", q.getNamesList(), params);
        sql.append(" ORDER BY k.name, r.time_start, r.resv_name, r.id");
        List<AccountedReservation.Builder> rows = new ArrayList<>();
        List<Long> clusterIds = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
            ps.setLong(1, q.getEnd());
            ps.setLong(2, q.getStart());
            for (int i = 0; i < params.size(); i++) {
                ps.setString(3 + i, params.get(i));
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(AccountedReservation.newBuilder()
                            .setCluster(rs.getString(1))
                            .setId((int) rs.getLong(3))
                            .setName(rs.getString(4))
                            .setStartTime(rs.getLong(5))
                            .setEndTime(rs.getLong(6))
                            .setNodes(rs.getString(7))
                            .setTres(rs.getString(8))
                            .setFlags(rs.getString(9))
                            .addAllAssocIds(assocIds(
                                    c,
                                    rs.getString(1),
                                    ReservationStore.split(rs.getString(10)),
                                    ReservationStore.split(rs.getString(11)))));
                    clusterIds.add(rs.getLong(2));
                }
            }
        }
        ReservationReport.Builder out = ReservationReport.newBuilder();
        for (int i = 0; i < rows.size(); i++) {
            AccountedReservation.Builder r = rows.get(i);
            ReservationUsage usage = new ReservationUsage(r.getStartTime(), r.getEndTime(), now);
            // UnusedWall counts only what the hourly rollup has passed, as slurmdbd's does.
            long rolledThrough = rolledThrough(c, clusterIds.get(i));
            ReservationUsage rolled =
                    new ReservationUsage(r.getStartTime(), Math.min(r.getEndTime(), rolledThrough), rolledThrough);
            try (PreparedStatement ps = c.prepareStatement("SELECT start_time, end_time, tres_alloc FROM jobs"
                    + " WHERE cluster_id = ? AND resv_id = ? AND start_time > 0 AND start_time < ?"
                    + " AND (end_time = 0 OR end_time > ?)")) {
                ps.setLong(1, clusterIds.get(i));
                ps.setLong(2, Integer.toUnsignedLong(r.getId()));
                ps.setLong(3, r.getEndTime());
                ps.setLong(4, r.getStartTime());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        TresCounts jobTres = TresCounts.parseIdForm(rs.getString(3), tres::nameOf);
                        usage.add(rs.getLong(1), rs.getLong(2), jobTres);
                        rolled.add(rs.getLong(1), rs.getLong(2), jobTres);
                    }
                }
            }
            r.putAllAllocSecs(usage.allocSecs());
            r.setUnusedWall(rolled.unusedWall(
                    TresCounts.parseNamed(r.getTres()).counts().getOrDefault("cpu", 0L)));
            out.addReservations(r);
        }
        return out.build();
    }

    /** The cluster's rollup mark: hours before it are rolled up (0 when none is). */
    private static long rolledThrough(Connection c, long clusterId) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("SELECT rolled_through FROM usage_rollup_mark WHERE cluster_id = ?")) {
            ps.setLong(1, clusterId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    /**
     * The associations a reservation was made for: with Users=, theirs (within Accounts= when
     * both are given); with Accounts= alone, the accounts' own. Users without one add nothing.
     */
    private static List<Long> assocIds(Connection c, String cluster, List<String> users, List<String> accounts)
            throws SQLException {
        TreeSet<Long> ids = new TreeSet<>();
        if (users.isEmpty() && accounts.isEmpty()) {
            return List.of();
        }
        StringBuilder sql = new StringBuilder("SELECT id, account, user_name FROM acct_associations"
                + " WHERE cluster_name = ? AND partition_name = ''");
        try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
            ps.setString(1, cluster);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String account = rs.getString(2);
                    String user = rs.getString(3);
                    boolean match = users.isEmpty()
                            ? user.isEmpty() && accounts.contains(account)
                            : users.contains(user) && (accounts.isEmpty() || accounts.contains(account));
                    if (match) {
                        ids.add(rs.getLong(1));
                    }
                }
            }
        }
        return List.copyOf(ids);
    }

    private static void in(StringBuilder sql, String column, List<String> values, List<String> params) {
        if (values.isEmpty()) {
            return;
        }
        sql.append(" AND ").append(column).append(" IN (");
        for (int i = 0; i < values.size(); i++) {
            sql.append(i == 0 ? "?" : ", ?");
            params.add(values.get(i));
        }
        sql.append(')');
    }

    static ReservationReport find(DataSource ds, ReservationQuery q, long now) throws SQLException {
        requireNonNull(q, "q is null");
        try (Connection c = ds.getConnection()) {
            ReservationReport r = find(c, q, now);
            c.commit();
            return r;
        }
    }
}
