package dev.sluice.ctld.dispatch;

import dev.sluice.common.hostlist.HostList;
import dev.sluice.ctld.config.CtldConfig;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ArrayRequest;
import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.TaskSet;
import dev.sluice.ctld.wire.WireMapper;
import dev.sluice.protocol.v1.LaunchBatchJobRequest;
import java.util.List;

/**
 * A batch launch as the node daemon receives it: the job's request in wire form and what the
 * node needs to know of its allocation there (the batch script's {@code SLURM_*} facts).
 * Unsigned; {@link NodeDispatcher} signs it for its node.
 */
public final class LaunchRequests {
    private final CtldConfig config;
    private final WireSpecs specs = new WireSpecs();

    LaunchRequests(CtldConfig config) {
        this.config = config;
    }

    /** A batch launch's facts as {@code host} sees them (the Prolog's environment there too). */
    LaunchBatchJobRequest of(Job job, ClusterImage image, String host) {
        Allocation a = job.allocation();
        Allocation.NodeShare here = a.nodes().stream()
                .filter(n -> n.node().equals(host))
                .findFirst()
                .orElse(a.nodes().get(0));
        return LaunchBatchJobRequest.newBuilder()
                .setJobId(job.id())
                .setSpec(specs.of(job.request()))
                .setClusterName(config.clusterName())
                .setNodeList(HostList.compress(a.nodeNames()))
                .setNumNodes(a.nodes().size())
                .setCpusOnNode(here.cpus())
                .setPartition(job.terms().partition())
                .setTimeLimitMinutes((int) job.terms().timeLimitMinutes())
                .setStartTime(job.run().startTime())
                .setRestartCount(job.run().restartCount())
                .setMemPerNodeMb(here.memoryMb())
                .setJobCpusPerNode(dev.sluice.common.slurm.RepeatCounts.format(
                        a.nodes().stream().map(Allocation.NodeShare::cpus).toList()))
                .setTasksPerNode(dev.sluice.common.slurm.RepeatCounts.format(batchTasksPerNode(job)))
                .setNumTasks(
                        a.nodes().stream().mapToInt(Allocation.NodeShare::tasks).sum())
                .setKillWaitSeconds(config.timers().killWaitSeconds())
                .setControllerHost(config.controller().controlHost())
                .setControllerPort(config.controller().grpcPort())
                .addAllGres(WireMapper.toWireGres(here.gres()))
                .addAllCores(here.cores())
                .putAllMpsPerGpu(mpsPerGpu(image, host))
                .mergeFrom(arrayFields(job))
                .build();
    }

    /**
     * The batch script's SLURM_TASKS_PER_NODE: the tasks placed on each node, or, for a job
     * that named no task count, as many as its CPUs there hold ({@code --exclusive -N2} on
     * 4-CPU nodes: {@code 4(x2)}, while NumTasks=2; recorded, compat 029).
     */
    private static List<Integer> batchTasksPerNode(Job job) {
        JobRequest r = job.request();
        if (r.size().numTasks() > 0 || r.size().ntasksPerNode() > 0) {
            return job.allocation().nodes().stream()
                    .map(Allocation.NodeShare::tasks)
                    .toList();
        }
        int perTask = Math.max(1, r.size().cpusPerTask());
        return job.allocation().nodes().stream()
                .map(n -> Math.max(n.tasks(), n.cpus() / perTask))
                .toList();
    }

    /** SLURM_ARRAY_* facts: the task, and count/min/max/step of the whole array as submitted. */
    private static LaunchBatchJobRequest arrayFields(Job job) {
        LaunchBatchJobRequest.Builder b = LaunchBatchJobRequest.newBuilder();
        if (!job.array().isArray()) {
            return b.build();
        }
        // Parsed once when the job arrived: a 10,000-task array's launches do not each re-read it.
        ArrayRequest asked = job.request().sequencing().array();
        TaskSet all = asked.tasks();
        return b.setArrayJobId(job.array().arrayJobId())
                .setArrayTaskId(Math.max(0, job.array().taskId()))
                .setArrayTaskCount(all.size())
                .setArrayTaskMin(all.first())
                .setArrayTaskMax(all.last())
                .setArrayTaskStep(asked.step())
                .build();
    }

    /** Each GPU's MPS count on the node, so it can turn an MPS share into a percentage. */
    public static java.util.Map<Integer, Long> mpsPerGpu(ClusterImage image, String node) {
        java.util.Map<Integer, Long> out = new java.util.HashMap<>();
        image.node(node)
                .ifPresent(v -> v.gres().inventory().named("mps").forEach(u -> out.put(u.index(), u.capacity())));
        return out;
    }
}
