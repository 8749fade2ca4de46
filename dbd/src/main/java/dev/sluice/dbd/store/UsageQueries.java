package dev.sluice.dbd.store;

import static java.util.Objects.requireNonNull;

import dev.sluice.protocol.v1.AssocUsage;
import dev.sluice.protocol.v1.AssociationEntry;
import dev.sluice.protocol.v1.ClusterTresUsage;
import dev.sluice.protocol.v1.ClusterUsage;
import dev.sluice.protocol.v1.ReservationQuery;
import dev.sluice.protocol.v1.ReservationReport;
import dev.sluice.protocol.v1.UsageQuery;
import dev.sluice.protocol.v1.UsageReport;
import dev.sluice.protocol.v1.WckeyUsage;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * sreport's reads: the rolled-up hours of a window summed per cluster TRES, per user
 * association and per user's wckey, with the clusters' account trees. Reads committed rows in one transaction.
 */
public final class UsageQueries {
    private final DataSource ds;

    public UsageQueries(DataSource ds) {
        this.ds = requireNonNull(ds, "ds is null");
    }

    /**
     * sreport's reservation report: reservations' rows overlapping the window, with what their
     * jobs used, a running job counting up to {@code now}.
     */
    public ReservationReport reservations(ReservationQuery q, long now) throws SQLException {
        return ReservationQueries.find(ds, q, now);
    }

    public UsageReport report(UsageQuery q) throws SQLException {
        UsageReport.Builder out = UsageReport.newBuilder();
        try (Connection c = ds.getConnection()) {
            TresCatalog tres = TresCatalog.load(c);
            List<Object[]> clusters = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT id, name FROM clusters ORDER BY name");
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (q.getClustersCount() == 0 || q.getClustersList().contains(rs.getString(2))) {
                        clusters.add(new Object[] {rs.getLong(1), rs.getString(2)});
                    }
                }
            }
            for (Object[] k : clusters) {
                out.addClusters(cluster(c, tres, (Long) k[0], (String) k[1], q.getStart(), q.getEnd()));
            }
            c.commit();
        }
        return out.build();
    }

    private static ClusterUsage cluster(Connection c, TresCatalog tres, long id, String name, long start, long end)
            throws SQLException {
        ClusterUsage.Builder u = ClusterUsage.newBuilder().setCluster(name);
        try (PreparedStatement ps = c.prepareStatement("SELECT tres_id, SUM(tres_count), COUNT(*), SUM(alloc_secs),"
                + " SUM(down_secs), SUM(pdown_secs), SUM(idle_secs), SUM(plan_secs), SUM(over_secs)"
                + " FROM usage_cluster_hour WHERE cluster_id = ? AND time_start >= ? AND time_start < ?"
                + " GROUP BY tres_id ORDER BY tres_id")) {
            ps.setLong(1, id);
            ps.setLong(2, start);
            ps.setLong(3, end);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    u.setHasUsage(true);
                    u.addTres(ClusterTresUsage.newBuilder()
                            .setTres(nameOf(tres, rs.getInt(1)))
                            .setCount(rs.getLong(2) / Math.max(1, rs.getLong(3)))
                            .setAllocSecs(rs.getLong(4))
                            .setDownSecs(rs.getLong(5))
                            .setPdownSecs(rs.getLong(6))
                            .setIdleSecs(rs.getLong(7))
                            .setPlanSecs(rs.getLong(8))
                            .setOverSecs(rs.getLong(9)));
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT account, user_name, tres_id, SUM(alloc_secs)"
                + " FROM usage_assoc_hour WHERE cluster_id = ? AND time_start >= ? AND time_start < ?"
                + " GROUP BY account, user_name, tres_id ORDER BY account, user_name, tres_id")) {
            ps.setLong(1, id);
            ps.setLong(2, start);
            ps.setLong(3, end);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    u.addAssocs(AssocUsage.newBuilder()
                            .setAccount(rs.getString(1))
                            .setUser(rs.getString(2))
                            .setTres(nameOf(tres, rs.getInt(3)))
                            .setAllocSecs(rs.getLong(4)));
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT wckey, user_name, tres_id, SUM(alloc_secs)"
                + " FROM usage_wckey_hour WHERE cluster_id = ? AND time_start >= ? AND time_start < ?"
                + " GROUP BY wckey, user_name, tres_id ORDER BY wckey, user_name, tres_id")) {
            ps.setLong(1, id);
            ps.setLong(2, start);
            ps.setLong(3, end);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    u.addWckeys(WckeyUsage.newBuilder()
                            .setWckey(rs.getString(1))
                            .setUser(rs.getString(2))
                            .setTres(nameOf(tres, rs.getInt(3)))
                            .setAllocSecs(rs.getLong(4)));
                }
            }
        }
        try (PreparedStatement ps =
                c.prepareStatement("SELECT account, user_name, parent_account FROM acct_associations"
                        + " WHERE cluster_name = ? AND partition_name = '' ORDER BY account, user_name")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    u.addAccounts(AssociationEntry.newBuilder()
                            .setCluster(name)
                            .setAccount(rs.getString(1))
                            .setUser(rs.getString(2))
                            .setParentAccount(rs.getString(3)));
                }
            }
        }
        return u.build();
    }

    private static String nameOf(TresCatalog tres, int id) {
        String n = tres.nameOf(id);
        return n == null ? Integer.toString(id) : n;
    }
}
