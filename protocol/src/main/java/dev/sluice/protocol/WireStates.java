package dev.sluice.protocol;

import dev.sluice.common.slurm.JobState;
import dev.sluice.common.slurm.NodeStateRequest;
import dev.sluice.common.slurm.PartitionState;
import java.util.Optional;

/**
 * The wire's state enums and {@code common.slurm}'s, which name them (the proto values carry
 * the same names). The one mapping, so that every side prints a state as Slurm does from
 * {@code common}.
 */
public final class WireStates {
    private static final String NODE_REQUEST_PREFIX = "NODE_STATE_REQUEST_";

    private WireStates() {}

    /** The state a wire value stands for; empty for an unset or unknown one. */
    public static Optional<JobState> jobState(dev.sluice.protocol.v1.JobState wire) {
        return switch (wire) {
            // No job is in it: only accounting's record of a run a requeue ended (JobStates).
            case JOB_STATE_UNSPECIFIED, UNRECOGNIZED, REQUEUED -> Optional.empty();
            default -> Optional.of(JobState.valueOf(wire.name()));
        };
    }

    public static dev.sluice.protocol.v1.JobState toWire(JobState state) {
        return dev.sluice.protocol.v1.JobState.valueOf(state.name());
    }

    /** A partition's state; unset reads as UP (Slurm's default); empty for an unknown value. */
    public static Optional<PartitionState> partitionState(dev.sluice.protocol.v1.PartitionState wire) {
        return switch (wire) {
            case PARTITION_STATE_UNSPECIFIED, PARTITION_STATE_UP -> Optional.of(PartitionState.UP);
            case PARTITION_STATE_DOWN -> Optional.of(PartitionState.DOWN);
            case PARTITION_STATE_DRAIN -> Optional.of(PartitionState.DRAIN);
            case PARTITION_STATE_INACTIVE -> Optional.of(PartitionState.INACTIVE);
            case UNRECOGNIZED -> Optional.empty();
        };
    }

    public static dev.sluice.protocol.v1.PartitionState toWire(PartitionState state) {
        return switch (state) {
            case UP -> dev.sluice.protocol.v1.PartitionState.PARTITION_STATE_UP;
            case DOWN -> dev.sluice.protocol.v1.PartitionState.PARTITION_STATE_DOWN;
            case DRAIN -> dev.sluice.protocol.v1.PartitionState.PARTITION_STATE_DRAIN;
            case INACTIVE -> dev.sluice.protocol.v1.PartitionState.PARTITION_STATE_INACTIVE;
        };
    }

    /** The state a node update asks for; empty for an unset or unknown one. */
    public static Optional<NodeStateRequest> nodeStateRequest(dev.sluice.protocol.v1.NodeStateRequest wire) {
        return switch (wire) {
            case NODE_STATE_REQUEST_UNSPECIFIED, UNRECOGNIZED -> Optional.empty();
            default -> Optional.of(NodeStateRequest.valueOf(wire.name().substring(NODE_REQUEST_PREFIX.length())));
        };
    }

    public static dev.sluice.protocol.v1.NodeStateRequest toWire(NodeStateRequest state) {
        return dev.sluice.protocol.v1.NodeStateRequest.valueOf(NODE_REQUEST_PREFIX + state.name());
    }
}
