package dev.sluice.dbd.store;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Optional;

class MariaDbWckeyStoreTest extends WckeyStoreContract {
    @Override
    protected String jdbcUrl() {
        Optional<String> url = TestDatabases.mariaDbUrl();
        assumeTrue(url.isPresent(), "no MariaDB: set " + TestDatabases.ENV);
        return url.get();
    }
}
