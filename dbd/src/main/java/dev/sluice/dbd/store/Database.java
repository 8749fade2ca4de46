package dev.sluice.dbd.store;

import static java.util.Objects.requireNonNull;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.util.Locale;
import java.util.Map;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pooled connection to the accounting database, migrated to the current schema before
 * anything else touches it. Schema changes happen only here, through the Flyway scripts in
 * {@code db/migration}, which run unchanged on MariaDB and on H2 in MariaDB mode.
 */
public final class Database implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Database.class);

    private final HikariDataSource pool;

    private Database(HikariDataSource pool) {
        this.pool = pool;
    }

    /** Opens the pool and migrates; fails (and closes the pool) when either fails. */
    public static Database open(String jdbcUrl, String user, String password, int poolSize) {
        requireNonNull(jdbcUrl, "jdbcUrl is null");
        HikariConfig cfg = new HikariConfig();
        cfg.setJdbcUrl(jdbcUrl);
        if (user != null && !user.isEmpty()) {
            cfg.setUsername(user);
        }
        if (password != null && !password.isEmpty()) {
            cfg.setPassword(password);
        }
        cfg.setMaximumPoolSize(poolSize);
        cfg.setPoolName("sluice-dbd");
        driverProperties(jdbcUrl).forEach(cfg::addDataSourceProperty);
        // Batches are applied in explicit transactions; queries read committed rows only.
        cfg.setAutoCommit(false);
        cfg.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
        // Start even when the database is not up yet: the controller's outbox holds the records
        // and callers get an error until the first connection succeeds.
        cfg.setInitializationFailTimeout(-1);
        HikariDataSource pool = new HikariDataSource(cfg);
        try {
            MigrateResult result = Flyway.configure()
                    .dataSource(pool)
                    .locations("classpath:db/migration")
                    .load()
                    .migrate();
            log.info(
                    "accounting schema at version {} ({} migrations applied now)",
                    result.targetSchemaVersion == null ? "current" : result.targetSchemaVersion,
                    result.migrationsExecuted);
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
        return new Database(pool);
    }

    /**
     * What sluice-dbd asks of the JDBC driver beyond the URL. On MariaDB: batched UPDATEs in the
     * server's bulk protocol (one prepared statement executed for every row), as the driver
     * already sends batched INSERTs. Without it each row of a batch was a query of its own for
     * the server to parse, and the updates of the accounting batches cost sluice-dbd and the
     * server twice what the inserts did (bench-ctld, docs/benchmarks.md). The price, per-row
     * update counts the driver no longer reports, is nothing here: no batch reads them. A URL
     * that sets {@code useBulkStmts} itself keeps its choice.
     */
    static Map<String, String> driverProperties(String jdbcUrl) {
        if (jdbcUrl.startsWith("jdbc:mariadb:")
                && !jdbcUrl.toLowerCase(Locale.ROOT).contains("usebulkstmts=")) {
            return Map.of("useBulkStmts", "true");
        }
        return Map.of();
    }

    public DataSource dataSource() {
        return pool;
    }

    @Override
    public void close() {
        pool.close();
    }
}
