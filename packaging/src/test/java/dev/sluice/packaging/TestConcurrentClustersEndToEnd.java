package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.daemon.PortsFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two clusters started at the same moment, as parallel tests start theirs: every daemon binds
 * port 0 and reports what it got, so no two daemons can be handed the same port, and each
 * cluster's commands reach its own controller through the slurm.conf written after it reported.
 */
class TestConcurrentClustersEndToEnd {
    @TempDir
    Path dir;

    private final List<ClusterProcesses> clusters = new ArrayList<>();

    @AfterEach
    void down() throws InterruptedException {
        for (ClusterProcesses c : clusters) {
            c.close();
        }
    }

    @Test
    void twoClustersStartedAtOnceGetDistinctPortsAndEachAnswersForItself() throws Exception {
        clusters.add(new ClusterProcesses(dir.resolve("a"), 1, 2, 1));
        clusters.add(new ClusterProcesses(dir.resolve("b"), 1, 2, 1));
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> starting = new ArrayList<>();
            for (ClusterProcesses c : clusters) {
                starting.add(pool.submit(() -> {
                    c.start();
                    return null;
                }));
            }
            for (int i = 0; i < starting.size(); i++) {
                try {
                    starting.get(i).get();
                } catch (java.util.concurrent.ExecutionException e) {
                    throw new AssertionError(clusters.get(i).logs(), e);
                }
            }
        } finally {
            pool.shutdownNow();
        }
        Set<Integer> seen = new HashSet<>();
        int count = 0;
        for (ClusterProcesses c : clusters) {
            for (String daemon : List.of("ctld", "node1")) {
                for (int port : PortsFile.read(c.layout().portsFile(daemon))
                        .orElseThrow()
                        .values()) {
                    seen.add(port);
                    count++;
                }
            }
        }
        assertThat(seen).hasSize(count);
        assertThat(clusters.get(0).layout().ctldPort())
                .isNotEqualTo(clusters.get(1).layout().ctldPort());
        for (ClusterProcesses c : clusters) {
            ClusterProcesses.Result r = c.command("sbatch", "--wrap", "true");
            assertThat(r.exitCode()).as(r.err()).isZero();
            assertThat(r.out()).isEqualTo("Submitted batch job 1\n");
            assertThat(c.command("sinfo", "-h", "-o", "%N").out()).isEqualTo("node1\n");
        }
    }
}
