package dev.sluice.dbd.store;

import static java.util.Objects.requireNonNull;

import dev.sluice.protocol.v1.ListWckeysRequest;
import dev.sluice.protocol.v1.ListWckeysResult;
import dev.sluice.protocol.v1.WckeyEntry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.sql.DataSource;

/**
 * The {@code acct_wckeys} table as {@code sacctmgr show wckey} lists it: by id, filtered,
 * deleted wckeys only when asked for.
 */
public final class WckeyStore {
    private final DataSource ds;

    public WckeyStore(DataSource ds) {
        this.ds = requireNonNull(ds, "ds is null");
    }

    public ListWckeysResult list(ListWckeysRequest r) throws SQLException {
        return Tx.run(
                ds,
                false,
                c -> ListWckeysResult.newBuilder().addAllWckeys(read(c, r)).build());
    }

    /** The wckeys that pass {@code r}'s conditions, by id, in {@code c}'s transaction. */
    static List<WckeyEntry> read(Connection c, ListWckeysRequest r) throws SQLException {
        List<WckeyEntry> out = new ArrayList<>();
        // A user's default is the wckey its row names (the flag REST shows as DEFAULT).
        try (PreparedStatement ps = c.prepareStatement("SELECT w.id, w.name, w.cluster_name, w.user_name,"
                        + " COALESCE(u.default_wckey, '') = w.name, w.deleted FROM acct_wckeys w"
                        + " LEFT JOIN acct_users u ON u.name = w.user_name ORDER BY w.id");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                WckeyEntry w = WckeyEntry.newBuilder()
                        .setId(rs.getInt(1))
                        .setName(rs.getString(2))
                        .setCluster(rs.getString(3))
                        .setUser(rs.getString(4))
                        .setIsDefault(rs.getBoolean(5))
                        .setDeleted(rs.getBoolean(6))
                        .build();
                if (matches(r, w)) {
                    out.add(w);
                }
            }
        }
        return out;
    }

    /**
     * Gives a user the wckeys it lacks, on each cluster, name by name; those added, in that
     * order. A user without a default wckey takes {@code preferred}, or else the first added.
     */
    static List<WckeyEntry> addForUser(
            Connection c, String user, List<String> clusters, List<String> names, String preferred, long now)
            throws SQLException {
        List<WckeyEntry> added = new ArrayList<>();
        // sacctmgr moves the named default to the end: it is listed, and numbered, last (compat
        // 218: wckeys=w218a,w218b defaultwckey=w218a adds w218b, then w218a).
        List<String> ordered = new ArrayList<>(names);
        if (ordered.remove(preferred)) {
            ordered.add(preferred);
        }
        for (String name : ordered) {
            for (String cluster : clusters) {
                if (exists(c, name, cluster, user)) {
                    continue;
                }
                // The id is numbered here, not by AUTO_INCREMENT: sacctmgr's preview is rolled back,
                // yet would use up the numbers, and REST shows them (slurmdbd's ran 1, 2, 3). The
                // counter is not the table's highest id: a number is never handed out twice. A row
                // numbered past it (by a binary from before the counter) moves it on.
                try (PreparedStatement ps = c.prepareStatement("UPDATE acct_wckey_ids SET last_id ="
                        + " GREATEST(last_id, (SELECT COALESCE(MAX(id), 0) FROM acct_wckeys)) + 1 WHERE id = 1")) {
                    ps.executeUpdate();
                }
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO acct_wckeys (id, name, cluster_name,"
                        + " user_name, created_at) SELECT last_id, ?, ?, ?, ? FROM acct_wckey_ids WHERE id = 1")) {
                    ps.setString(1, name);
                    ps.setString(2, cluster);
                    ps.setString(3, user);
                    ps.setLong(4, now);
                    ps.executeUpdate();
                }
                added.add(WckeyEntry.newBuilder()
                        .setName(name)
                        .setCluster(cluster)
                        .setUser(user)
                        .build());
            }
        }
        String def = !preferred.isEmpty() ? preferred : names.isEmpty() ? "" : names.get(0);
        if (!def.isEmpty()) {
            try (PreparedStatement ps = c.prepareStatement(
                    "UPDATE acct_users SET default_wckey = ? WHERE name = ? AND (default_wckey = '' OR ? <> '')")) {
                ps.setString(1, def);
                ps.setString(2, user);
                ps.setString(3, preferred);
                ps.executeUpdate();
            }
        }
        return added;
    }

    /**
     * Removes wckeys of a user ({@code names} empty: all of them), on every cluster; those
     * removed. slurmdbd drops a wckey no job has used outright, so none is kept as deleted.
     */
    static List<WckeyEntry> removeForUser(Connection c, String user, List<String> names) throws SQLException {
        List<WckeyEntry> removed = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT id, name, cluster_name, user_name FROM acct_wckeys WHERE LOWER(user_name) = LOWER(?) ORDER BY id")) {
            ps.setString(1, user);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (names.isEmpty() || names.contains(rs.getString(2))) {
                        removed.add(WckeyEntry.newBuilder()
                                .setId(rs.getInt(1))
                                .setName(rs.getString(2))
                                .setCluster(rs.getString(3))
                                .setUser(rs.getString(4))
                                .build());
                    }
                }
            }
        }
        for (WckeyEntry w : removed) {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM acct_wckeys WHERE id = ?")) {
                ps.setInt(1, w.getId());
                ps.executeUpdate();
            }
        }
        return removed;
    }

    private static boolean exists(Connection c, String name, String cluster, String user) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("SELECT 1 FROM acct_wckeys WHERE name = ? AND cluster_name = ? AND user_name = ?")) {
            ps.setString(1, name);
            ps.setString(2, cluster);
            ps.setString(3, user);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** Whether a wckey passes every condition given (slurmdbd compares names without case). */
    static boolean matches(ListWckeysRequest r, WckeyEntry w) {
        return (r.getWithDeleted() || !w.getDeleted())
                && in(r.getNamesList(), w.getName())
                && in(r.getClustersList(), w.getCluster())
                && in(r.getUsersList(), w.getUser())
                && (r.getIdsList().isEmpty() || r.getIdsList().contains(w.getId()));
    }

    private static boolean in(List<String> wanted, String value) {
        return wanted.isEmpty()
                || wanted.stream().anyMatch(v -> v.toLowerCase(Locale.ROOT).equals(value.toLowerCase(Locale.ROOT)));
    }
}
