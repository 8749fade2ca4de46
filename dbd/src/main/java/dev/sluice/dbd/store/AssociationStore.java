package dev.sluice.dbd.store;

import static java.util.Objects.requireNonNull;

import dev.sluice.protocol.v1.AccountEntry;
import dev.sluice.protocol.v1.AddAccountsRequest;
import dev.sluice.protocol.v1.AddClusterRequest;
import dev.sluice.protocol.v1.AddResult;
import dev.sluice.protocol.v1.AddUsersRequest;
import dev.sluice.protocol.v1.AssociationEntry;
import dev.sluice.protocol.v1.AssociationLimits;
import dev.sluice.protocol.v1.DeleteAssocRequest;
import dev.sluice.protocol.v1.DeleteAssocResult;
import dev.sluice.protocol.v1.ListAssocRequest;
import dev.sluice.protocol.v1.ListAssocResult;
import dev.sluice.protocol.v1.UserEntry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * Accounts, users and associations, as sacctmgr manages them. Each change is one transaction;
 * a request with {@code commit} false runs the same checks and inserts, reports what they did
 * and rolls back, which is how sacctmgr previews a change before asking to commit it.
 *
 * <p>Refusals no retry can fix (a missing parent account) are {@link IllegalArgumentException}s
 * carrying sacctmgr's text.
 */
public final class AssociationStore {
    private final DataSource ds;
    private final InstantSource clock;

    public AssociationStore(DataSource ds, InstantSource clock) {
        this.ds = requireNonNull(ds, "ds is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    public AddResult addClusters(AddClusterRequest r) throws SQLException {
        return inTransaction(r.getCommit(), c -> {
            AddResult.Builder out = AddResult.newBuilder();
            for (String name : r.getNamesList()) {
                if (exists(c, "SELECT 1 FROM clusters WHERE name = ?", name)) {
                    continue;
                }
                AccountingStore.insertCluster(c, name, now());
                out.addAdded(name);
            }
            return out.build();
        });
    }

    public AddResult addAccounts(AddAccountsRequest r) throws SQLException {
        return inTransaction(r.getCommit(), c -> {
            String parent = r.getParent().isEmpty() ? "root" : r.getParent();
            List<String> clusters = r.getWithoutAssociations()
                    ? List.of()
                    : r.getClustersCount() > 0 ? r.getClustersList() : clusters(c);
            AddResult.Builder out = AddResult.newBuilder();
            for (String cluster : clusters) {
                if (!exists(
                        c,
                        "SELECT 1 FROM acct_associations WHERE cluster_name = ? AND account = ? AND user_name = ''",
                        cluster,
                        parent)) {
                    throw new IllegalArgumentException(" Parent account '" + parent + "' doesn't exist on cluster "
                            + cluster + "\n        Contact your admin to add this account.\n No associations created.");
                }
            }
            for (String name : r.getNamesList()) {
                boolean added = false;
                if (!exists(c, "SELECT 1 FROM acct_accounts WHERE name = ?", name)) {
                    try (PreparedStatement ps = c.prepareStatement("INSERT INTO acct_accounts (name, description,"
                            + " organization, created_at) VALUES (?, ?, ?, ?)")) {
                        ps.setString(1, name);
                        // Kept as given: sacctmgr lowercases what it sends, Slurm's REST API does
                        // not (slurmdbd stores either as it comes). Both default to the name.
                        ps.setString(2, r.getDescription().isEmpty() ? name : r.getDescription());
                        ps.setString(
                                3, r.getOrganization().isEmpty() ? parentOrName(parent, name) : r.getOrganization());
                        ps.setLong(4, now());
                        ps.executeUpdate();
                    }
                    added = true;
                }
                for (String cluster : clusters) {
                    if (!exists(
                            c,
                            "SELECT 1 FROM acct_associations WHERE cluster_name = ? AND account = ?"
                                    + " AND user_name = '' AND partition_name = ''",
                            cluster,
                            name)) {
                        NewAssociations.insert(
                                c,
                                cluster,
                                name,
                                "",
                                parent,
                                NewAssociations.withDefaults(c, cluster, parent, r.getLimits()),
                                now());
                        out.addAssociations(entry(cluster, name, "", parent, r.getLimits()));
                        added = true;
                    }
                }
                if (added) {
                    out.addAdded(name);
                }
            }
            return out.build();
        });
    }

    public AddResult addUsers(AddUsersRequest r) throws SQLException {
        return inTransaction(r.getCommit(), c -> {
            boolean bare = r.getWithoutAssociations();
            List<String> clusters = bare ? List.of() : r.getClustersCount() > 0 ? r.getClustersList() : clusters(c);
            List<String> accounts = bare ? List.of() : r.getAccountsList();
            // wckeys alone (add user NAME wckey=W) need no account.
            if (!bare && accounts.isEmpty() && r.getWckeysCount() == 0) {
                throw new IllegalArgumentException(" Need name of account to add user to.");
            }
            for (String account : accounts) {
                for (String cluster : clusters) {
                    if (!exists(
                            c,
                            "SELECT 1 FROM acct_associations WHERE cluster_name = ? AND account = ?"
                                    + " AND user_name = ''",
                            cluster,
                            account)) {
                        throw new IllegalArgumentException(
                                " This account '" + account + "' doesn't exist.\n"
                                        + "        Contact your admin to add this account.\n No associations or wckeys created.");
                    }
                }
            }
            String defaultAccount =
                    accounts.isEmpty() ? "" : r.getDefaultAccount().isEmpty() ? accounts.get(0) : r.getDefaultAccount();
            AddResult.Builder out = AddResult.newBuilder();
            for (String user : r.getNamesList()) {
                if (!exists(c, "SELECT 1 FROM acct_users WHERE name = ?", user)) {
                    try (PreparedStatement ps = c.prepareStatement("INSERT INTO acct_users (name, default_account,"
                            + " admin_level, created_at) VALUES (?, ?, ?, ?)")) {
                        ps.setString(1, user);
                        ps.setString(2, defaultAccount);
                        ps.setString(3, r.getAdminLevel().isEmpty() ? "None" : r.getAdminLevel());
                        ps.setLong(4, now());
                        ps.executeUpdate();
                    }
                    // sacctmgr names only new users under "Adding User(s)".
                    out.addAdded(user);
                }
                for (String cluster : clusters) {
                    for (String account : accounts) {
                        if (!exists(
                                c,
                                "SELECT 1 FROM acct_associations WHERE cluster_name = ? AND account = ?"
                                        + " AND user_name = ? AND partition_name = ''",
                                cluster,
                                account,
                                user)) {
                            NewAssociations.insert(
                                    c,
                                    cluster,
                                    account,
                                    user,
                                    account,
                                    NewAssociations.withDefaults(c, cluster, account, r.getLimits()),
                                    now());
                            out.addAssociations(entry(cluster, account, user, account, r.getLimits()));
                            // A user added without one takes its first association as default.
                            try (PreparedStatement ps = c.prepareStatement("UPDATE acct_users SET default_account = ?"
                                    + " WHERE name = ? AND default_account = ''")) {
                                ps.setString(1, account);
                                ps.setString(2, user);
                                ps.executeUpdate();
                            }
                        }
                    }
                }
                out.addAllWckeys(
                        WckeyStore.addForUser(c, user, clusters, r.getWckeysList(), r.getDefaultWckey(), now()));
            }
            return out.build();
        });
    }

    public DeleteAssocResult delete(DeleteAssocRequest r) throws SQLException {
        return inTransaction(r.getCommit(), c -> {
            DeleteAssocResult.Builder out = DeleteAssocResult.newBuilder();
            for (String name : r.getNamesList()) {
                int rows;
                switch (r.getEntity()) {
                    case ACCOUNTS -> {
                        if (name.equalsIgnoreCase("root")) {
                            throw new IllegalArgumentException(" You can't delete the root account.");
                        }
                        // In any case, as slurmdbd's tables compare under MySQL's collation.
                        rows = update(c, "DELETE FROM acct_accounts WHERE LOWER(name) = LOWER(?)", name);
                        update(c, "DELETE FROM acct_associations WHERE LOWER(account) = LOWER(?)", name);
                    }
                    case USERS -> {
                        if (r.getAccountsCount() > 0 || r.getWckeysCount() > 0) {
                            deleteUserAssociations(c, name, r.getAccountsList(), out);
                            out.addAllWckeys(
                                    r.getWckeysCount() > 0
                                            ? WckeyStore.removeForUser(c, name, r.getWckeysList())
                                            : List.of());
                            continue;
                        }
                        WckeyStore.removeForUser(c, name, List.of());
                        rows = update(c, "DELETE FROM acct_users WHERE LOWER(name) = LOWER(?)", name);
                        update(c, "DELETE FROM acct_associations WHERE LOWER(user_name) = LOWER(?)", name);
                    }
                    default -> throw new IllegalArgumentException(" Can't delete " + r.getEntity());
                }
                if (rows > 0) {
                    out.addDeleted(name);
                }
            }
            return out.build();
        });
    }

    /** {@code delete user NAME account=A}: the user's associations under A go, the user stays. */
    private static void deleteUserAssociations(
            Connection c, String user, List<String> accounts, DeleteAssocResult.Builder out) throws SQLException {
        for (String account : accounts) {
            for (String cluster : clusters(c)) {
                try (PreparedStatement ps = c.prepareStatement("DELETE FROM acct_associations WHERE cluster_name = ?"
                        + " AND account = ? AND user_name = ? AND partition_name = ''")) {
                    ps.setString(1, cluster);
                    ps.setString(2, account);
                    ps.setString(3, user);
                    if (ps.executeUpdate() > 0) {
                        out.addAssociations(
                                entry(cluster, account, user, account, AssociationLimits.getDefaultInstance()));
                    }
                }
            }
        }
    }

    public ListAssocResult list(ListAssocRequest r) throws SQLException {
        return inTransaction(false, c -> {
            ListAssocResult.Builder out = ListAssocResult.newBuilder();
            switch (r.getEntity()) {
                case ACCOUNTS -> {
                    try (PreparedStatement ps = c.prepareStatement(
                                    "SELECT name, description, organization FROM acct_accounts ORDER BY name");
                            ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            if (Names.wanted(r.getNamesList(), rs.getString(1))) {
                                out.addAccounts(AccountEntry.newBuilder()
                                        .setName(rs.getString(1))
                                        .setDescription(rs.getString(2))
                                        .setOrganization(rs.getString(3)));
                            }
                        }
                    }
                }
                case USERS -> {
                    try (PreparedStatement ps = c.prepareStatement(
                                    "SELECT name, default_account, admin_level, default_wckey FROM acct_users"
                                            + " ORDER BY name");
                            ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            if (Names.wanted(r.getNamesList(), rs.getString(1))) {
                                out.addUsers(UserEntry.newBuilder()
                                        .setName(rs.getString(1))
                                        .setDefaultAccount(rs.getString(2))
                                        .setAdminLevel(rs.getString(3))
                                        .setDefaultWckey(rs.getString(4)));
                            }
                        }
                    }
                }
                case ASSOCIATIONS -> AssociationRows.listed(c, r).forEach(out::addAssociations);
                case CLUSTERS -> {
                    for (String n : clusters(c)) {
                        if (Names.wanted(r.getNamesList(), n)) {
                            out.addClusters(n).putClusterTres(n, ClusterTres.current(c, n));
                        }
                    }
                }
                case ASSOC_ENTITY_UNSPECIFIED, UNRECOGNIZED -> throw new IllegalArgumentException("No valid entity");
            }
            return out.build();
        });
    }

    // ---- helpers ----

    private <T> T inTransaction(boolean commit, Tx.Work<T> work) throws SQLException {
        return Tx.run(ds, commit, work);
    }

    private long now() {
        return clock.instant().getEpochSecond();
    }

    private static String parentOrName(String parent, String name) {
        return parent.equals("root") ? name : parent;
    }

    private static AssociationEntry entry(
            String cluster, String account, String user, String parent, AssociationLimits limits) {
        return AssociationEntry.newBuilder()
                .setCluster(cluster)
                .setAccount(account)
                .setUser(user)
                .setParentAccount(parent)
                .setLimits(limits)
                .build();
    }

    static List<String> clusters(Connection c) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT name FROM clusters ORDER BY name");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    private static boolean exists(Connection c, String sql, String... args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                ps.setString(i + 1, args[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static int update(Connection c, String sql, String arg) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, arg);
            return ps.executeUpdate();
        }
    }
}
