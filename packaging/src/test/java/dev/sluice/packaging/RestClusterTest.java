package dev.sluice.packaging;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The REST end-to-end tests' lifecycle: each test class gets its own {@link RestCluster} in its
 * own directory, started before its first test and stopped after its last (the classes run one
 * after another, so the fields are one class's at a time).
 */
abstract class RestClusterTest {
    @TempDir
    static Path stateDir;

    static RestCluster api;
    static ClusterProcesses cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        api = RestCluster.start(stateDir);
        cluster = api.cluster;
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (api != null) {
            api.close();
            api = null;
            cluster = null;
        }
    }
}
