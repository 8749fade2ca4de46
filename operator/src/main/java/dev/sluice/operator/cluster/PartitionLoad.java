package dev.sluice.operator.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What an autoscaler needs about one partition: jobs waiting, the CPUs and GPUs they ask for in
 * all, and the nodes idle there (taking work, running none).
 */
public record PartitionLoad(String partition, long pendingJobs, long pendingCpus, long pendingGpus, long idleNodes) {
    /** A pending job: the partitions it may run in (Slurm allows a list), its CPUs and GPUs. */
    public record Pending(List<String> partitions, long cpus, long gpus) {}

    /** A node: the partitions it belongs to, and whether it is idle and in service. */
    public record NodeSlot(List<String> partitions, boolean idle) {}

    /**
     * Loads of {@code partitions} (every one reported, at zero when nothing waits). A job
     * pending in several partitions counts in each, as it could start in any.
     */
    public static List<PartitionLoad> compute(List<String> partitions, List<Pending> pending, List<NodeSlot> nodes) {
        Map<String, long[]> by = new TreeMap<>();
        partitions.forEach(p -> by.put(p, new long[4]));
        for (Pending j : pending) {
            for (String p : j.partitions()) {
                long[] l = by.computeIfAbsent(p, k -> new long[4]);
                l[0]++;
                l[1] += j.cpus();
                l[2] += j.gpus();
            }
        }
        for (NodeSlot n : nodes) {
            if (n.idle()) {
                for (String p : n.partitions()) {
                    by.computeIfAbsent(p, k -> new long[4])[3]++;
                }
            }
        }
        List<PartitionLoad> out = new ArrayList<>();
        by.forEach((p, l) -> out.add(new PartitionLoad(p, l[0], l[1], l[2], l[3])));
        return out;
    }
}
