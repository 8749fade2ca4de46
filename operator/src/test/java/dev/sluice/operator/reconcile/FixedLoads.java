package dev.sluice.operator.reconcile;

import dev.sluice.common.scalein.ScaleInRanking.Candidate;
import dev.sluice.operator.cluster.PartitionLoad;
import dev.sluice.operator.cluster.SluiceCluster;
import java.util.List;

/** A controller whose partitions have the given loads and which has no nodes, for metrics tests. */
public final class FixedLoads implements SluiceCluster {
    private final List<PartitionLoad> loads;

    public FixedLoads(List<PartitionLoad> loads) {
        this.loads = List.copyOf(loads);
    }

    @Override
    public List<PartitionLoad> partitionLoads() {
        return loads;
    }

    @Override
    public List<Node> nodes() {
        return List.of();
    }

    @Override
    public List<Candidate> scaleInRanking(List<String> nodes) {
        return List.of();
    }

    @Override
    public void drain(String node, String reason) {
        throw new UnsupportedOperationException("no nodes");
    }

    @Override
    public void resume(String node) {
        throw new UnsupportedOperationException("no nodes");
    }

    @Override
    public void delete(String node) {
        throw new UnsupportedOperationException("no nodes");
    }
}
