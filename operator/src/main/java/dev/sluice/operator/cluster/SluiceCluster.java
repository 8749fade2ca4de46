package dev.sluice.operator.cluster;

import dev.sluice.common.scalein.ScaleInRanking.Candidate;
import dev.sluice.common.slurm.NodeFlag;
import dev.sluice.common.slurm.NodeState;
import dev.sluice.common.slurm.NodeStatus;
import java.util.List;

/** The controller as the operator's reconcilers see it. */
public interface SluiceCluster {
    /**
     * A node as the controller reports it: its name, its state as Slurm's base state plus flags
     * (common's {@link NodeStatus}, read from the wire once) and its reason.
     */
    record Node(String name, NodeStatus status, String reason) {
        /** Drain asked ({@code IDLE+DRAIN}, {@code MIXED+DRAIN}): draining or drained. */
        public boolean drained() {
            return status.has(NodeFlag.DRAIN);
        }

        public boolean down() {
            return status.base() == NodeState.DOWN || status.has(NodeFlag.NOT_RESPONDING);
        }

        public boolean idle() {
            return status.base() == NodeState.IDLE && !drained() && !down();
        }
    }

    /** Every node the controller knows. */
    List<Node> nodes() throws ClusterUnavailableException;

    /**
     * {@code scontrol show scalein NODES}: the named nodes that the controller knows, least work
     * first ({@link dev.sluice.common.scalein.ScaleInRanking}).
     */
    List<Candidate> scaleInRanking(List<String> nodes) throws ClusterUnavailableException;

    /** Pending work and idle nodes per partition, for the autoscaling metrics. */
    List<PartitionLoad> partitionLoads() throws ClusterUnavailableException;

    /** {@code scontrol update nodename=NODE state=drain reason=REASON}. */
    void drain(String node, String reason) throws ClusterUnavailableException;

    /** {@code scontrol update nodename=NODE state=resume}. */
    void resume(String node) throws ClusterUnavailableException;

    /** {@code scontrol delete nodename=NODE}: forget a dynamic node whose pod is gone. */
    void delete(String node) throws ClusterUnavailableException;

    /** The controller could not be reached or refused; the reconciler retries later. */
    final class ClusterUnavailableException extends Exception {
        public ClusterUnavailableException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
