package dev.sluice.ctld.control;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.Node;
import dev.sluice.ctld.state.Partition;

/**
 * What a job asks of each node (memory, the CPUs of one task) against the largest node of its
 * partition, checked at submission: Slurm 22.05 refuses such a job with a second line naming
 * what cannot be satisfied.
 */
final class PerNodeFit {
    private PerNodeFit() {}

    /**
     * {@code --mem} or {@code --mem-per-cpu} above the RealMemory of every node of the partition:
     * refused as Slurm 22.05 refuses it (also without CR_*_Memory), with its second line, {@code
     * sbatch: error: Memory specification can not be satisfied}. Per CPU is compared as Slurm
     * does, without multiplying by the CPUs a node would give.
     */
    static void check(ClusterView state, Partition partition, JobRequest request) {
        long mostMemory = -1;
        int mostCpus = -1;
        for (String name : partition.nodes()) {
            Node node = state.node(name);
            if (node != null) {
                mostMemory = Math.max(mostMemory, node.hardware().realMemoryMb());
                mostCpus = Math.max(mostCpus, node.hardware().cpus());
            }
        }
        long wanted = Math.max(request.memory().perNodeMb(), request.memory().perCpuMb());
        if (wanted > 0 && mostMemory >= 0 && wanted > mostMemory) {
            throw refusal("Memory specification can not be satisfied");
        }
        // One task's CPUs must fit on one node (sbatch -c5 on 4-CPU nodes).
        if (mostCpus >= 0 && request.effectiveCpusPerTask() > mostCpus) {
            throw refusal("CPU count per node can not be satisfied");
        }
    }

    private static SlurmException refusal(String line) {
        return new SlurmException(
                ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE, ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE.text(), line);
    }
}
