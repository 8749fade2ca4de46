package dev.sluice.dbd.store;

import static java.util.Objects.requireNonNull;

import dev.sluice.protocol.v1.AssocEntity;
import dev.sluice.protocol.v1.AssociationEntry;
import dev.sluice.protocol.v1.AssociationLimits;
import dev.sluice.protocol.v1.ListAssocRequest;
import dev.sluice.protocol.v1.ModifyAssocRequest;
import dev.sluice.protocol.v1.ModifyResult;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * {@code sacctmgr modify user|account|association where ... set ...}: the user's or account's
 * own row (DefaultAccount, AdminLevel, Description, Organization) and the limits of the
 * associations the where part picks. One transaction; {@code commit} false previews.
 */
public final class AssociationEdits {
    private final DataSource ds;

    public AssociationEdits(DataSource ds) {
        this.ds = requireNonNull(ds, "ds is null");
    }

    public ModifyResult modify(ModifyAssocRequest r) throws SQLException {
        return Tx.run(ds, r.getCommit(), c -> {
            ModifyResult.Builder out = ModifyResult.newBuilder();
            List<String> names = r.getNamesList();
            if (r.getEntity() == AssocEntity.USERS) {
                modifyUsers(c, r, names, out);
            } else if (r.getEntity() == AssocEntity.ACCOUNTS) {
                modifyAccounts(c, r, names, out);
            }
            Map<String, Object> limits = limitColumns(r.getLimits(), r.getClearedList());
            if (!limits.isEmpty()) {
                List<AssociationEntry> all = AssociationRows.read(c, ListAssocRequest.getDefaultInstance());
                for (AssociationEntry a : selected(c, r, names)) {
                    setLimits(c, a, merged(a.getLimits(), limits));
                    out.addAssociations(a);
                    InheritedChanges.reached(all, a, limits, out::addAssociations);
                }
            }
            return out.build();
        });
    }

    private static void modifyUsers(Connection c, ModifyAssocRequest r, List<String> names, ModifyResult.Builder out)
            throws SQLException {
        if (!r.hasDefaultAccount() && !r.hasAdminLevel()) {
            return;
        }
        for (String user : names) {
            if (r.hasDefaultAccount()) {
                String account = r.getDefaultAccount();
                // Slurm refuses a default account the user has no association with.
                if (AssociationRows.read(
                                c,
                                ListAssocRequest.newBuilder()
                                        .addUsers(user)
                                        .addAccounts(account)
                                        .build())
                        .isEmpty()) {
                    throw new IllegalArgumentException(" Can't modify because these users aren't associated with new"
                            + " default account '" + account + "'...\n  U = " + user);
                }
                if (update(c, "UPDATE acct_users SET default_account = ? WHERE name = ?", account, user) == 0) {
                    continue;
                }
            }
            if (r.hasAdminLevel()) {
                if (update(c, "UPDATE acct_users SET admin_level = ? WHERE name = ?", r.getAdminLevel(), user) == 0) {
                    continue;
                }
            }
            out.addModified(user);
        }
    }

    private static void modifyAccounts(Connection c, ModifyAssocRequest r, List<String> names, ModifyResult.Builder out)
            throws SQLException {
        if (!r.hasDescription() && !r.hasOrganization()) {
            return;
        }
        for (String account : names) {
            int rows = 0;
            if (r.hasDescription()) {
                rows += update(
                        c, "UPDATE acct_accounts SET description = ? WHERE name = ?", r.getDescription(), account);
            }
            if (r.hasOrganization()) {
                rows += update(
                        c, "UPDATE acct_accounts SET organization = ? WHERE name = ?", r.getOrganization(), account);
            }
            if (rows > 0) {
                out.addModified(account);
            }
        }
    }

    /** The associations the where part picks; an entity's names pick its own associations. */
    private static List<AssociationEntry> selected(Connection c, ModifyAssocRequest r, List<String> names)
            throws SQLException {
        ListAssocRequest.Builder q = ListAssocRequest.newBuilder()
                .addAllClusters(r.getClustersList())
                .addAllAccounts(r.getAccountsList())
                .addAllUsers(r.getUsersList());
        switch (r.getEntity()) {
            case USERS -> q.addAllUsers(names);
            case ACCOUNTS -> q.addAllAccounts(names);
            default -> {}
        }
        if (q.getAccountsCount() == 0 && q.getUsersCount() == 0 && q.getClustersCount() == 0) {
            // sacctmgr will not change every association at once without a condition.
            return List.of();
        }
        List<AssociationEntry> out = new ArrayList<>();
        for (AssociationEntry a : AssociationRows.read(c, q.build())) {
            boolean userRow = !a.getUser().isEmpty();
            if (r.getEntity() == AssocEntity.USERS && !userRow) {
                continue;
            }
            if (r.getEntity() == AssocEntity.ACCOUNTS && userRow && r.getUsersCount() == 0) {
                continue;
            }
            if (r.getPartitionsCount() > 0 && !r.getPartitionsList().contains(a.getPartition())) {
                continue;
            }
            out.add(a);
        }
        return out;
    }

    /** Column → new value (null clears) for the limits set or cleared. */
    private static Map<String, Object> limitColumns(AssociationLimits l, List<String> cleared) {
        Map<String, Object> cols = new LinkedHashMap<>();
        if (l.hasShares()) {
            cols.put("shares", Integer.toUnsignedLong(l.getShares()));
        }
        if (l.hasMaxJobs()) {
            cols.put("max_jobs", Integer.toUnsignedLong(l.getMaxJobs()));
        }
        if (l.hasMaxSubmitJobs()) {
            cols.put("max_submit_jobs", Integer.toUnsignedLong(l.getMaxSubmitJobs()));
        }
        if (l.hasMaxWallMinutes()) {
            cols.put("max_wall_minutes", Integer.toUnsignedLong(l.getMaxWallMinutes()));
        }
        if (l.hasGrpJobs()) {
            cols.put("grp_jobs", Integer.toUnsignedLong(l.getGrpJobs()));
        }
        if (l.hasGrpSubmitJobs()) {
            cols.put("grp_submit_jobs", Integer.toUnsignedLong(l.getGrpSubmitJobs()));
        }
        if (l.hasGrpTres()) {
            cols.put("grp_tres", l.getGrpTres());
        }
        if (l.hasMaxTres()) {
            cols.put("max_tres", l.getMaxTres());
        }
        if (l.hasMaxTresPerNode()) {
            cols.put("max_tres_per_node", l.getMaxTresPerNode());
        }
        if (l.hasQos()) {
            cols.put("qos", l.getQos());
        }
        if (l.hasDefaultQos()) {
            cols.put("default_qos", l.getDefaultQos());
        }
        for (String key : cleared) {
            String col = switch (key) {
                case "fairshare" -> "shares";
                case "maxjobs" -> "max_jobs";
                case "maxsubmitjobs" -> "max_submit_jobs";
                case "maxwall" -> "max_wall_minutes";
                case "grpjobs" -> "grp_jobs";
                case "grpsubmitjobs" -> "grp_submit_jobs";
                case "grptres" -> "grp_tres";
                case "maxtres" -> "max_tres";
                case "maxtrespernode" -> "max_tres_per_node";
                case "qos" -> "qos";
                case "defaultqos" -> "default_qos";
                default -> throw new IllegalArgumentException(" Unknown option: " + key + "=-1");
            };
            cols.put(col, null);
        }
        return cols;
    }

    /**
     * The columns for one association: a TRES limit given changes only the TRES it names, and a
     * TRES set to -1 is removed (compat 216: {@code GrpTRES=node=-1} leaves {@code cpu=4}), as
     * for a QOS.
     */
    private static Map<String, Object> merged(AssociationLimits own, Map<String, Object> cols) {
        Map<String, Object> out = new LinkedHashMap<>(cols);
        if (cols.get("grp_tres") instanceof String given) {
            out.put("grp_tres", TresLimitText.merge(own.hasGrpTres() ? own.getGrpTres() : null, given));
        }
        if (cols.get("max_tres") instanceof String given) {
            out.put("max_tres", TresLimitText.merge(own.hasMaxTres() ? own.getMaxTres() : null, given));
        }
        if (cols.get("max_tres_per_node") instanceof String given) {
            out.put(
                    "max_tres_per_node",
                    TresLimitText.merge(own.hasMaxTresPerNode() ? own.getMaxTresPerNode() : null, given));
        }
        return out;
    }

    private static void setLimits(Connection c, AssociationEntry a, Map<String, Object> cols) throws SQLException {
        StringBuilder sql = new StringBuilder("UPDATE acct_associations SET ");
        sql.append(String.join(", ", cols.keySet().stream().map(k -> k + " = ?").toList()));
        sql.append(" WHERE cluster_name = ? AND account = ? AND user_name = ? AND partition_name = ?");
        try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
            int i = 1;
            for (Object v : cols.values()) {
                ps.setObject(i++, v);
            }
            ps.setString(i++, a.getCluster());
            ps.setString(i++, a.getAccount());
            ps.setString(i++, a.getUser());
            ps.setString(i, a.getPartition());
            ps.executeUpdate();
        }
    }

    private static int update(Connection c, String sql, String value, String key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, value);
            ps.setString(2, key);
            return ps.executeUpdate();
        }
    }
}
