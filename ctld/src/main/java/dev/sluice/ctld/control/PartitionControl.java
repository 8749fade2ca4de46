package dev.sluice.ctld.control;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.Partition;
import dev.sluice.ctld.state.PartitionChange;
import java.util.List;

/**
 * {@code scontrol update PartitionName=... State=... MaxTime=...}, as Slurm 22.05 decides it:
 * only an operator may ({@code Invalid user id} otherwise, checked before the name), and only a
 * partition that exists ({@code Invalid partition name specified}). The change is soft: like
 * Slurm started without {@code -R}, the controller takes slurm.conf's partitions again when it
 * restarts or is reconfigured. Jobs see it at the next scheduling pass (a DOWN partition's jobs
 * wait with PartitionDown; a DRAIN or INACTIVE one takes no new jobs).
 */
public final class PartitionControl {
    private PartitionControl() {}

    public static ControlResult<Void> update(
            ClusterView state, Caller caller, String name, List<PartitionChange> changes) {
        if (!caller.isOperator()) {
            throw new SlurmException(ErrorCode.USER_ID_MISSING);
        }
        Partition partition = state.partitions().stream()
                .filter(p -> p.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new SlurmException(ErrorCode.INVALID_PARTITION_NAME));
        return new ControlResult<>(
                List.of(), List.of(new SoftChange.PartitionUpdated(partition.with(changes))), List.of(), null);
    }
}
