package dev.sluice.ctld.control;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.Node;
import dev.sluice.ctld.state.Partition;

/** The memory a job asks for against what the partition's nodes have, checked at submission. */
final class MemoryFit {
    private MemoryFit() {}

    /**
     * {@code --mem} or {@code --mem-per-cpu} above the RealMemory of every node of the partition:
     * refused as Slurm 22.05 refuses it (also without CR_*_Memory), with its second line, {@code
     * sbatch: error: Memory specification can not be satisfied}. Per CPU is compared as Slurm
     * does, without multiplying by the CPUs a node would give.
     */
    static void check(ClusterView state, Partition partition, JobRequest request) {
        long wanted = Math.max(request.memPerNodeMb(), request.memPerCpuMb());
        if (wanted == 0) {
            return;
        }
        long most = -1;
        for (String name : partition.nodes()) {
            Node node = state.node(name);
            if (node != null) {
                most = Math.max(most, node.hardware().realMemoryMb());
            }
        }
        if (most >= 0 && wanted > most) {
            throw new SlurmException(
                    ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE,
                    ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE.text(),
                    "Memory specification can not be satisfied");
        }
    }
}
