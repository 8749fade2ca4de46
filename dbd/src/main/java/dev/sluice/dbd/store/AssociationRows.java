package dev.sluice.dbd.store;

import dev.sluice.protocol.v1.AssociationEntry;
import dev.sluice.protocol.v1.AssociationLimits;
import dev.sluice.protocol.v1.ListAssocRequest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads associations in the order sacctmgr lists them: per cluster, down the account tree,
 * each account followed by its users and then by its sub-accounts.
 */
final class AssociationRows {
    private AssociationRows() {}

    static List<AssociationEntry> read(Connection c, ListAssocRequest r) throws SQLException {
        List<AssociationEntry> all = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                        "SELECT cluster_name, account, user_name, partition_name,"
                                + " parent_account, shares, max_jobs, max_submit_jobs, max_wall_minutes, grp_tres, max_tres,"
                                + " qos, default_qos, grp_jobs, grp_submit_jobs, id, max_tres_per_node FROM acct_associations");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                AssociationLimits.Builder l = AssociationLimits.newBuilder();
                if (rs.getObject(6) != null) {
                    l.setShares((int) rs.getLong(6));
                }
                if (rs.getObject(7) != null) {
                    l.setMaxJobs((int) rs.getLong(7));
                }
                if (rs.getObject(8) != null) {
                    l.setMaxSubmitJobs((int) rs.getLong(8));
                }
                if (rs.getObject(9) != null) {
                    l.setMaxWallMinutes((int) rs.getLong(9));
                }
                if (rs.getString(10) != null) {
                    l.setGrpTres(rs.getString(10));
                }
                if (rs.getString(11) != null) {
                    l.setMaxTres(rs.getString(11));
                }
                if (rs.getString(12) != null) {
                    l.setQos(rs.getString(12));
                }
                if (rs.getString(13) != null) {
                    l.setDefaultQos(rs.getString(13));
                }
                if (rs.getObject(14) != null) {
                    l.setGrpJobs((int) rs.getLong(14));
                }
                if (rs.getObject(15) != null) {
                    l.setGrpSubmitJobs((int) rs.getLong(15));
                }
                if (rs.getString(17) != null) {
                    l.setMaxTresPerNode(rs.getString(17));
                }
                all.add(AssociationEntry.newBuilder()
                        .setCluster(rs.getString(1))
                        .setAccount(rs.getString(2))
                        .setUser(rs.getString(3))
                        .setPartition(rs.getString(4))
                        .setParentAccount(rs.getString(5))
                        .setLimits(l)
                        .setId(rs.getLong(16))
                        .build());
            }
        }
        // Numbered before the listing's conditions select any: the numbers are the tree's.
        all = AssocNumbering.number(all);
        Map<String, String> parentOf = new HashMap<>();
        for (AssociationEntry a : all) {
            if (a.getUser().isEmpty()) {
                parentOf.put(a.getCluster() + "/" + a.getAccount(), a.getParentAccount());
            }
        }
        return all.stream()
                .filter(a -> r.getClustersCount() == 0 || r.getClustersList().contains(a.getCluster()))
                .filter(a -> r.getAccountsCount() == 0 || r.getAccountsList().contains(a.getAccount()))
                .filter(a -> r.getUsersCount() == 0 || r.getUsersList().contains(a.getUser()))
                .sorted(Comparator.comparing(AssociationEntry::getCluster)
                        .thenComparing(a -> lineage(parentOf, a.getCluster(), a.getAccount()))
                        .thenComparing(AssociationEntry::getUser)
                        .thenComparing(AssociationEntry::getPartition))
                .toList();
    }

    /**
     * The associations as sacctmgr lists them: one without a Max limit of its own (MaxJobs,
     * MaxSubmitJobs, MaxWall, and per TRES MaxTRES and MaxTRESPerNode) shows the nearest account's,
     * as slurmdbd fills inherited limits in when it lists them (compat 252, 267); Grp limits are
     * each level's own and are not filled in. What is stored stays the association's own, which
     * {@link InheritedChanges} and the controller read.
     */
    static List<AssociationEntry> listed(Connection c, ListAssocRequest r) throws SQLException {
        Map<String, AssociationEntry> accounts = new HashMap<>();
        for (AssociationEntry a : read(c, ListAssocRequest.getDefaultInstance())) {
            if (a.getUser().isEmpty() && a.getPartition().isEmpty()) {
                accounts.put(a.getCluster() + "/" + a.getAccount(), a);
            }
        }
        List<AssociationEntry> out = new ArrayList<>();
        for (AssociationEntry a : read(c, r)) {
            AssociationLimits.Builder shown = a.getLimits().toBuilder();
            String up = a.getUser().isEmpty() ? a.getParentAccount() : a.getAccount();
            for (int depth = 0; !up.isEmpty() && depth < 64; depth++) {
                AssociationEntry parent = accounts.get(a.getCluster() + "/" + up);
                if (parent == null) {
                    break;
                }
                inherit(shown, parent.getLimits());
                up = parent.getParentAccount();
            }
            AssociationLimits limits = shown.build();
            out.add(
                    limits.equals(a.getLimits())
                            ? a
                            : a.toBuilder().setLimits(limits).build());
        }
        return out;
    }

    /** Fills in what {@code shown} (the nearer levels) leaves unset from an account above it. */
    private static void inherit(AssociationLimits.Builder shown, AssociationLimits parent) {
        if (!shown.hasMaxJobs() && parent.hasMaxJobs()) {
            shown.setMaxJobs(parent.getMaxJobs());
        }
        if (!shown.hasMaxSubmitJobs() && parent.hasMaxSubmitJobs()) {
            shown.setMaxSubmitJobs(parent.getMaxSubmitJobs());
        }
        if (!shown.hasMaxWallMinutes() && parent.hasMaxWallMinutes()) {
            shown.setMaxWallMinutes(parent.getMaxWallMinutes());
        }
        if (parent.hasMaxTres()) {
            // The nearer level's count wins for each TRES it names.
            String merged = TresLimitText.merge(parent.getMaxTres(), shown.hasMaxTres() ? shown.getMaxTres() : "");
            if (merged != null) {
                shown.setMaxTres(merged);
            }
        }
        if (parent.hasMaxTresPerNode()) {
            String merged = TresLimitText.merge(
                    parent.getMaxTresPerNode(), shown.hasMaxTresPerNode() ? shown.getMaxTresPerNode() : "");
            if (merged != null) {
                shown.setMaxTresPerNode(merged);
            }
        }
    }

    /** {@code /root/science/physics}: sorting by it walks the tree depth first. */
    private static String lineage(Map<String, String> parentOf, String cluster, String account) {
        StringBuilder path = new StringBuilder();
        String a = account;
        for (int depth = 0; a != null && !a.isEmpty() && depth < 64; depth++) {
            path.insert(0, "/" + a);
            a = parentOf.get(cluster + "/" + a);
        }
        return path.toString();
    }
}
