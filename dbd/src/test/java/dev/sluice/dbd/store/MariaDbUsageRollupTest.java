package dev.sluice.dbd.store;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Optional;

/** The rollup on MariaDB (Testcontainers or {@code SLUICE_TEST_JDBC_URL}; see {@link TestDatabases}). */
class MariaDbUsageRollupTest extends UsageRollupContract {
    @Override
    protected String jdbcUrl() {
        Optional<String> url = TestDatabases.mariaDbUrl();
        assumeTrue(url.isPresent(), "no MariaDB: set " + TestDatabases.ENV);
        return url.get();
    }
}
