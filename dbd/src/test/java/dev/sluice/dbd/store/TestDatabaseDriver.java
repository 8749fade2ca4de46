package dev.sluice.dbd.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What sluice-dbd asks of the JDBC driver: batched updates in one statement on MariaDB. */
class TestDatabaseDriver {
    @Test
    void mariaDbBatchesUpdatesInBulkUnlessTheUrlSaysOtherwise() {
        assertThat(Database.driverProperties("jdbc:mariadb://db:3306/slurm_acct_db"))
                .containsExactly(java.util.Map.entry("useBulkStmts", "true"));
        assertThat(Database.driverProperties("jdbc:mariadb://db/acct?useBulkStmts=false"))
                .isEmpty();
        assertThat(Database.driverProperties("jdbc:mariadb://db/acct?user=u&UseBulkStmts=false"))
                .isEmpty();
        // H2 refuses settings it does not know.
        assertThat(Database.driverProperties("jdbc:h2:file:/var/lib/sluice/dbd/acct;MODE=MariaDB"))
                .isEmpty();
    }

    /**
     * The server's own count of statements: a batch of 200 row updates is one bulk statement,
     * where it was 200 queries to parse, and every row still changes.
     */
    @Test
    void aBatchOfUpdatesReachesMariaDbAsOneStatement() throws SQLException {
        Optional<String> url = TestDatabases.mariaDbUrl();
        assumeTrue(url.isPresent(), "no MariaDB: set " + TestDatabases.ENV);
        try (Database db = Database.open(url.get(), "", "", 1);
                Connection c = db.dataSource().getConnection();
                Statement s = c.createStatement()) {
            s.execute("CREATE TEMPORARY TABLE bulk_probe (id INT PRIMARY KEY, v INT NOT NULL)");
            s.execute("INSERT INTO bulk_probe SELECT seq, 0 FROM seq_1_to_200");
            long before = questions(s);
            try (PreparedStatement ps = c.prepareStatement("UPDATE bulk_probe SET v = ? WHERE id = ?")) {
                for (int id = 1; id <= 200; id++) {
                    ps.setInt(1, id * 7);
                    ps.setInt(2, id);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            long statements = questions(s) - before - 1;
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM bulk_probe WHERE v = id * 7")) {
                rs.next();
                assertThat(rs.getInt(1)).isEqualTo(200);
            }
            c.rollback();
            assertThat(statements).isLessThanOrEqualTo(2);
        }
    }

    private static long questions(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("SHOW SESSION STATUS LIKE 'Questions'")) {
            rs.next();
            return rs.getLong(2);
        }
    }
}
