package dev.sluice.dbd.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * sacctmgr's transactions: run, then commit or (for a preview) roll back. A committed change
 * bumps {@code acct_policy_version}, which is how the controllers' poll learns that
 * associations or QOS changed.
 */
final class Tx {
    private Tx() {}

    @FunctionalInterface
    interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    static <T> T run(DataSource ds, boolean commit, Work<T> work) throws SQLException {
        try (Connection c = ds.getConnection()) {
            try {
                T out = work.run(c);
                if (commit) {
                    try (PreparedStatement ps =
                            c.prepareStatement("UPDATE acct_policy_version SET version = version + 1 WHERE id = 1")) {
                        ps.executeUpdate();
                    }
                    c.commit();
                } else {
                    c.rollback();
                }
                return out;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        }
    }

    static long version(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT version FROM acct_policy_version WHERE id = 1");
                ResultSet rs = ps.executeQuery()) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }
}
