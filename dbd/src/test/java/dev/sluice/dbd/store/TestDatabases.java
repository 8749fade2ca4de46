package dev.sluice.dbd.store;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.Optional;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.mariadb.MariaDBContainer;

/**
 * Where the MariaDB tests find a server: a Testcontainers MariaDB when Docker is there, else
 * {@code SLUICE_TEST_JDBC_URL}. With neither, the tests are skipped on a workstation but fail
 * under CI ({@code CI} set), so a CI job that forgot its database cannot pass by skipping.
 */
public final class TestDatabases {
    public static final String ENV = "SLUICE_TEST_JDBC_URL";
    private static MariaDBContainer container;

    private TestDatabases() {}

    public static synchronized Optional<String> mariaDbUrl() {
        String fromEnv = System.getenv(ENV);
        if (fromEnv != null && !fromEnv.isBlank()) {
            return Optional.of(fromEnv);
        }
        if (DockerClientFactory.instance().isDockerAvailable()) {
            if (container == null) {
                container = new MariaDBContainer("mariadb:10.11");
                container.start();
            }
            return Optional.of(container.getJdbcUrl() + "?user=" + container.getUsername() + "&password="
                    + container.getPassword());
        }
        if (System.getenv("CI") != null) {
            fail("CI must provide MariaDB: set " + ENV + " or a Docker engine");
        }
        return Optional.empty();
    }
}
