package dev.sluice.dbd.store;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Optional;

/** sacctmgr modify job on MariaDB (Testcontainers or {@code SLUICE_TEST_JDBC_URL}; see {@link TestDatabases}). */
class MariaDbJobEditsTest extends JobEditsContract {
    @Override
    protected String jdbcUrl() {
        Optional<String> url = TestDatabases.mariaDbUrl();
        assumeTrue(url.isPresent(), "no MariaDB: set " + TestDatabases.ENV);
        return url.get();
    }
}
