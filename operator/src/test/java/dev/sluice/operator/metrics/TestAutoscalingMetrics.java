package dev.sluice.operator.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.operator.cluster.PartitionLoad;
import dev.sluice.operator.cluster.PartitionLoad.NodeSlot;
import dev.sluice.operator.cluster.PartitionLoad.Pending;
import dev.sluice.operator.cluster.SluiceCluster;
import dev.sluice.operator.reconcile.MockApi;
import dev.sluice.operator.reconcile.Resources;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;

class TestAutoscalingMetrics {
    @Test
    void loadsCountPendingWorkInEachPartitionItMayRunInAndIdleNodes() {
        List<PartitionLoad> loads = PartitionLoad.compute(
                List.of("all", "gpu", "empty"),
                List.of(new Pending(List.of("gpu"), 4, 1), new Pending(List.of("gpu", "all"), 2, 2)),
                List.of(new NodeSlot(List.of("all", "gpu"), true), new NodeSlot(List.of("all", "gpu"), false)));
        assertThat(loads)
                .containsExactly(
                        new PartitionLoad("all", 1, 2, 2, 1),
                        new PartitionLoad("empty", 0, 0, 0, 0),
                        new PartitionLoad("gpu", 2, 6, 3, 1));
    }

    @Test
    void theEndpointServesOneSeriesPerControllerAndPartition() throws Exception {
        List<PartitionLoad> loads = List.of(new PartitionLoad("gpu", 2, 6, 3, 1));
        try (MockApi api = new MockApi(new byte[64])) {
            api.client().resource(Resources.controller("lab", 6817, null)).create();
            api.client().resource(Resources.controller("down", 6817, null)).create();
            try (AutoscalingMetrics metrics = new AutoscalingMetrics(
                    api.client(),
                    (client, c) -> {
                        if (c.getMetadata().getName().equals("down")) {
                            throw new SluiceCluster.ClusterUnavailableException("not answering", null);
                        }
                        return new dev.sluice.operator.reconcile.FixedLoads(loads);
                    },
                    Clock.systemUTC())) {
                int port = metrics.serve(0);
                assertThat(Scrape.lines(port, "sluice_partition_"))
                        .containsExactly(
                                "sluice_partition_idle_nodes{controller=\"lab\",namespace=\"hpc\",partition=\"gpu\"} 1.0",
                                "sluice_partition_pending_cpus{controller=\"lab\",namespace=\"hpc\",partition=\"gpu\"} 6.0",
                                "sluice_partition_pending_gpus{controller=\"lab\",namespace=\"hpc\",partition=\"gpu\"} 3.0",
                                "sluice_partition_pending_jobs{controller=\"lab\",namespace=\"hpc\",partition=\"gpu\"} 2.0");
            }
        }
    }
}
