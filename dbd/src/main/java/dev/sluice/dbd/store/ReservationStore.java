package dev.sluice.dbd.store;

import dev.sluice.dbd.model.AccountingEntry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * Keeps advance reservations' history as slurmdbd does (observed on Slurm 22.05): a reservation
 * is a row from its creation; an update changes the current row in place, unless it changes
 * what the reservation holds (nodes, TRES, flags, users, accounts) while it is active, which
 * ends the row then and starts another with the same id; deleting an active reservation ends its
 * row then and keeps it, deleting one that has not started removes it (so does a row that starts
 * in the deletion's second: the real slurmdbd leaves no zero-length row); a repeating reservation
 * that moves on to its next window keeps a row per window. Called inside the
 * accounting batch's transaction, so a re-sent record is skipped before it gets here.
 */
final class ReservationStore {
    private ReservationStore() {}

    /** The current row of a reservation name. */
    private record Current(long row, long resvId, long start, AccountingEntry.Reservation held, boolean split) {}

    static void apply(Connection c, long clusterId, AccountingEntry.Reservation r) throws SQLException {
        Current cur = current(c, clusterId, r.name());
        if (r.deleted()) {
            if (cur == null) {
                return;
            }
            if (cur.start() >= r.time()) {
                // Not begun (or a row begun in the deletion's own second): no history to keep.
                exec(c, "DELETE FROM reservations WHERE id = ?", cur.row());
            } else {
                try (PreparedStatement ps =
                        c.prepareStatement("UPDATE reservations SET time_end = ? WHERE id = ? AND time_end > ?")) {
                    ps.setLong(1, r.time());
                    ps.setLong(2, cur.row());
                    ps.setLong(3, r.time());
                    ps.executeUpdate();
                }
            }
            try (PreparedStatement ps = c.prepareStatement(
                    "UPDATE reservations SET deleted = 1 WHERE cluster_id = ? AND resv_name = ? AND deleted = 0")) {
                ps.setLong(1, clusterId);
                ps.setString(2, r.name());
                ps.executeUpdate();
            }
            return;
        }
        if (cur == null || cur.resvId() != r.id()) {
            if (cur != null) {
                // Another reservation of the same name: the old one's rows are history.
                exec(c, "UPDATE reservations SET deleted = 1 WHERE id = ?", cur.row());
            }
            insert(c, clusterId, r, r.start());
            return;
        }
        if (cur.held().end() <= r.time() && r.start() >= cur.held().end()) {
            // A repeating reservation moved on to a later window: the one that ended keeps its
            // row, the new window gets its own (slurmdbd 22.05, compat 187).
            insert(c, clusterId, r, r.start());
            return;
        }
        boolean active = cur.start() < r.time() && r.start() <= r.time() && r.time() < r.end();
        if (active && r.holdsOtherThan(cur.held())) {
            try (PreparedStatement ps = c.prepareStatement("UPDATE reservations SET time_end = ? WHERE id = ?")) {
                ps.setLong(1, r.time());
                ps.setLong(2, cur.row());
                ps.executeUpdate();
            }
            insert(c, clusterId, r, r.time());
            return;
        }
        // After a split the current row starts at the split, whatever the reservation's start.
        long start = cur.split() ? cur.start() : r.start();
        try (PreparedStatement ps = c.prepareStatement("UPDATE reservations SET time_start = ?, time_end = ?,"
                + " nodes = ?, tres = ?, flags = ?, users = ?, accounts = ? WHERE id = ?")) {
            int i = bind(ps, r, start);
            ps.setLong(i, cur.row());
            ps.executeUpdate();
        }
    }

    private static Current current(Connection c, long clusterId, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT id, resv_id, time_start, time_end, nodes, tres, flags,"
                + " users, accounts FROM reservations WHERE cluster_id = ? AND resv_name = ? AND deleted = 0"
                + " ORDER BY time_start DESC, id DESC")) {
            ps.setLong(1, clusterId);
            ps.setString(2, name);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                AccountingEntry.Reservation held = new AccountingEntry.Reservation(
                        0,
                        0,
                        name,
                        rs.getLong(2),
                        rs.getLong(3),
                        rs.getLong(4),
                        rs.getString(5),
                        rs.getString(6),
                        rs.getString(7),
                        split(rs.getString(8)),
                        split(rs.getString(9)),
                        false);
                long row = rs.getLong(1);
                long resvId = rs.getLong(2);
                long start = rs.getLong(3);
                boolean earlier = rs.next() && rs.getLong(2) == resvId;
                return new Current(row, resvId, start, held, earlier);
            }
        }
    }

    private static void insert(Connection c, long clusterId, AccountingEntry.Reservation r, long start)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO reservations (time_start, time_end, nodes, tres,"
                + " flags, users, accounts, cluster_id, resv_id, resv_name) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            int i = bind(ps, r, start);
            ps.setLong(i++, clusterId);
            ps.setLong(i++, r.id());
            ps.setString(i, r.name());
            ps.executeUpdate();
        }
    }

    private static int bind(PreparedStatement ps, AccountingEntry.Reservation r, long start) throws SQLException {
        int i = 1;
        ps.setLong(i++, start);
        ps.setLong(i++, r.end());
        ps.setString(i++, clip(r.nodes(), 4096));
        ps.setString(i++, clip(r.tres(), 1024));
        ps.setString(i++, clip(r.flags(), 512));
        ps.setString(i++, clip(String.join(",", r.users()), 4096));
        ps.setString(i++, clip(String.join(",", r.accounts()), 4096));
        return i;
    }

    private static void exec(Connection c, String sql, long id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, id);
            ps.executeUpdate();
        }
    }

    static List<String> split(String joined) {
        return joined == null || joined.isEmpty() ? List.of() : List.of(joined.split(","));
    }

    private static String clip(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max);
    }
}
