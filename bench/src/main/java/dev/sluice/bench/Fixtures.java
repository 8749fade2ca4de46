package dev.sluice.bench;

import dev.sluice.common.gres.GresSpec;
import dev.sluice.ctld.gres.GresInventory;
import dev.sluice.ctld.gres.GresPool;
import dev.sluice.ctld.sched.SchedulePlan;
import dev.sluice.ctld.sched.Scheduler;
import dev.sluice.ctld.select.NodeCapacity;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.CoreSet;
import dev.sluice.ctld.state.DaemonReport;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.Node;
import dev.sluice.ctld.state.NodeEndpoint;
import dev.sluice.ctld.state.NodeEquipment;
import dev.sluice.ctld.state.NodeFacts;
import dev.sluice.ctld.state.NodeHardware;
import dev.sluice.ctld.state.Partition;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.packaging.sim.SyntheticWorkload;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Clusters and queues for the benchmarks: nodes of 64 cores and 256 GB, one in ten with eight
 * GPUs, in a {@code cpu} and a {@code gpu} partition, and a seeded mix of jobs. Built through the
 * controller's own records, so what the benchmarks run on is what a controller would hold.
 */
public final class Fixtures {
    /** When the benchmarks' clusters live. */
    public static final long NOW = 1_700_000_000L;

    static final NodeHardware HARDWARE = new NodeHardware(64, 1, 2, 32, 1, 256_000, 0);

    private Fixtures() {}

    static String nodeName(int i, int gpuNodes) {
        return i < gpuNodes ? "g" + (i + 1) : "c" + (i - gpuNodes + 1);
    }

    /** Allocator input: {@code count} GPU nodes, every other one half busy. */
    public static List<NodeCapacity> gpuCapacities(int count) {
        GresInventory gpus = GresInventory.of(GresSpec.parseNodeList("gpu:8"), List.of());
        List<NodeCapacity> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            boolean busy = i % 2 == 0;
            out.add(new NodeCapacity(
                    "g" + (i + 1),
                    HARDWARE,
                    busy ? 32 : 64,
                    busy ? 128_000 : 256_000,
                    !busy,
                    true,
                    List.of("gpu"),
                    1,
                    GresPool.idle(gpus),
                    CoreSet.EMPTY));
        }
        return out;
    }

    /**
     * A controller state with {@code nodeCount} registered, responding nodes and {@code jobCount}
     * submitted jobs, after one scheduling pass has started what fits: a full cluster and a deep
     * queue.
     */
    public static ClusterState busyCluster(int nodeCount, int jobCount, long seed) {
        int gpuNodes = Math.max(1, nodeCount / 10);
        GresInventory gpus = GresInventory.of(GresSpec.parseNodeList("gpu:8"), List.of());
        List<Node> nodes = new ArrayList<>(nodeCount);
        List<String> cpuNames = new ArrayList<>();
        List<String> gpuNames = new ArrayList<>();
        for (int i = 0; i < nodeCount; i++) {
            String name = nodeName(i, gpuNodes);
            boolean gpu = i < gpuNodes;
            (gpu ? gpuNames : cpuNames).add(name);
            nodes.add(Node.configured(
                    name,
                    new NodeEndpoint(name, "127.0.0.1", 6818),
                    HARDWARE,
                    gpu ? List.of("gpu") : List.of(),
                    gpu ? gpus : GresInventory.NONE,
                    1));
        }
        ClusterState state = new ClusterState(
                nodes,
                List.of(partition("cpu", cpuNames, true), partition("gpu", gpuNames, false)),
                java.util.List.of(),
                1);
        long seq = 0;
        for (Node n : nodes) {
            state.replay(
                    ++seq,
                    new StateRecord.NodeRegistered(
                            n.name(),
                            new NodeEndpoint(n.name(), "127.0.0.1", 6818),
                            new NodeEquipment(HARDWARE, List.of(), ""),
                            new DaemonReport(NOW - 3600, "bench", NodeFacts.NONE),
                            false,
                            NOW - 3600));
            state.heard(n.name(), NOW);
        }
        Random random = new Random(seed);
        for (int i = 0; i < jobCount; i++) {
            JobRequest request = randomRequest(random);
            state.replay(
                    ++seq,
                    new StateRecord.JobSubmitted(
                            state.nextJobId(), request, request.partition(), request.timeLimitMinutes(), NOW - 60));
        }
        SchedulePlan plan = new Scheduler(
                        dev.sluice.ctld.sched.SchedulerConfig.defaults(Scheduler.SelectDefaults.builder()
                                .memoryConsumable(true)
                                .gresNames(java.util.Set.of("gpu"))
                                .build()))
                .schedule(state.image(), NOW);
        for (SchedulePlan.Start start : plan.starts()) {
            state.replay(
                    ++seq,
                    new StateRecord.JobStarted(
                            start.jobId(), start.allocation(), start.partition(), start.timeLimitMinutes(), NOW));
        }
        return state;
    }

    static Partition partition(String name, List<String> nodes, boolean isDefault) {
        return Partition.builder(name).nodes(nodes).isDefault(isDefault).build();
    }

    /** The scale harness's seeded mix (mostly small CPU jobs, some multi-node, some GPU). */
    public static JobRequest randomRequest(Random random) {
        return SyntheticWorkload.next(random);
    }

    public static JobRequest request(int uid, String partition, int nodes, int tasks, String gres, long limit) {
        return SyntheticWorkload.request(uid, partition, nodes, tasks, gres, limit);
    }
}
