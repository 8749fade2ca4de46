package dev.sluice.dbd.store;

import dev.sluice.protocol.v1.AssociationLimits;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The row a new association gets, whoever makes it: a new cluster its two root associations,
 * {@code sacctmgr add account/user} theirs with the limits slurmdbd copies down from the parent.
 * Kept apart from {@link AssociationStore}, which decides which associations a request makes.
 */
final class NewAssociations {
    private NewAssociations() {}

    /** The root associations a new cluster starts with (called inside the cluster's insert). */
    static void rootAssociations(Connection c, String cluster, long now) throws SQLException {
        insert(
                c,
                cluster,
                "root",
                "",
                "",
                AssociationLimits.newBuilder().setShares(1).setQos("normal").build(),
                now);
        insert(
                c,
                cluster,
                "root",
                "root",
                "root",
                AssociationLimits.newBuilder().setShares(1).setQos("normal").build(),
                now);
    }

    /** Unset shares are 1; an unset QOS list is the parent's, as slurmdbd copies it down. */
    static AssociationLimits withDefaults(Connection c, String cluster, String parent, AssociationLimits l)
            throws SQLException {
        AssociationLimits.Builder b = l.toBuilder();
        if (!l.hasShares()) {
            b.setShares(1);
        }
        if (!l.hasQos()) {
            String inherited = null;
            try (PreparedStatement ps = c.prepareStatement("SELECT qos FROM acct_associations WHERE cluster_name = ?"
                    + " AND account = ? AND user_name = '' AND partition_name = ''")) {
                ps.setString(1, cluster);
                ps.setString(2, parent);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        inherited = rs.getString(1);
                    }
                }
            }
            b.setQos(inherited == null ? "normal" : inherited);
        }
        return b.build();
    }

    static void insert(
            Connection c, String cluster, String account, String user, String parent, AssociationLimits l, long now)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO acct_associations (cluster_name, account,"
                + " user_name, partition_name, parent_account, shares, max_jobs, max_submit_jobs, max_wall_minutes,"
                + " grp_tres, max_tres, qos, default_qos, created_at, grp_jobs, grp_submit_jobs, max_tres_per_node)"
                + " VALUES (?, ?, ?, '', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            ps.setString(1, cluster);
            ps.setString(2, account);
            ps.setString(3, user);
            ps.setString(4, parent);
            ps.setObject(5, l.hasShares() ? Integer.toUnsignedLong(l.getShares()) : null);
            ps.setObject(6, l.hasMaxJobs() ? Integer.toUnsignedLong(l.getMaxJobs()) : null);
            ps.setObject(7, l.hasMaxSubmitJobs() ? Integer.toUnsignedLong(l.getMaxSubmitJobs()) : null);
            ps.setObject(8, l.hasMaxWallMinutes() ? Integer.toUnsignedLong(l.getMaxWallMinutes()) : null);
            ps.setObject(9, l.hasGrpTres() ? l.getGrpTres() : null);
            ps.setObject(10, l.hasMaxTres() ? l.getMaxTres() : null);
            ps.setObject(11, l.hasQos() ? l.getQos() : null);
            ps.setObject(12, l.hasDefaultQos() ? l.getDefaultQos() : null);
            ps.setLong(13, now);
            ps.setObject(14, l.hasGrpJobs() ? Integer.toUnsignedLong(l.getGrpJobs()) : null);
            ps.setObject(15, l.hasGrpSubmitJobs() ? Integer.toUnsignedLong(l.getGrpSubmitJobs()) : null);
            // Kept as slurmdbd lists it (names in order, memory with its unit), as edits keep it.
            ps.setObject(16, l.hasMaxTresPerNode() ? TresLimitText.merge(null, l.getMaxTresPerNode()) : null);
            ps.executeUpdate();
        }
    }
}
