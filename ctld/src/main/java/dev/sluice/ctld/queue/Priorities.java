package dev.sluice.ctld.queue;

import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.Partition;
import java.util.HashMap;
import java.util.Map;

/**
 * Job priorities as Slurm computes them. {@code priority/basic}: older jobs first (the first job
 * gets 4294901759 and each later one one less). {@code priority/multifactor}: the weighted sum of
 * age, fair-share, job size, partition and QOS factors, each in [0, 1], minus the job's nice
 * value ({@link QosPriorities} for the QOS factor);
 * fair-share is {@code 2^(-usage/shares)} with every user holding an equal share and usage the
 * CPU-seconds of their jobs, halved every PriorityDecayHalfLife.
 *
 * <p>Pure: computed from an image and a time, for every pending job in one pass.
 */
public final class Priorities {
    /** Slurm's priority/basic starting point. */
    static final long BASIC_TOP = 4294901760L;

    private Priorities() {}

    /** Priorities with only Slurm's default QOS known (every QOS factor 0). */
    public static Map<Integer, Long> compute(ClusterImage image, PriorityWeights w, long now) {
        return compute(image, w, QosPriorities.DEFAULT, now);
    }

    public static Map<Integer, Long> compute(ClusterImage image, PriorityWeights w, QosPriorities qos, long now) {
        Map<Integer, Long> out = new HashMap<>();
        if (!w.multifactor()) {
            for (Job job : image.jobs()) {
                if (isHeld(job)) {
                    out.put(job.id(), 0L);
                } else {
                    // A running or finished job keeps the priority it started with, as Slurm
                    // shows it (and squeue orders by it: of two cancelled jobs the older first).
                    out.put(
                            job.id(),
                            job.adminPriority() > 0 ? job.adminPriority() : Math.max(1, BASIC_TOP - job.id()));
                }
            }
            return out;
        }
        Map<Integer, Double> usage = usageByUser(image, w, now);
        double totalUsage =
                usage.values().stream().mapToDouble(Double::doubleValue).sum();
        long users = image.jobs().stream()
                .mapToInt(j -> j.request().owner().uid())
                .distinct()
                .count();
        double share = users == 0 ? 1 : 1.0 / users;
        int totalCpus =
                image.nodes().stream().mapToInt(v -> v.node().hardware().cpus()).sum();
        int maxJobFactor = image.partitions().stream()
                .mapToInt(Partition::priorityJobFactor)
                .max()
                .orElse(1);
        for (Job job : image.jobs()) {
            if (isHeld(job)) {
                out.put(job.id(), 0L);
                continue;
            }
            if (!job.isPending()) {
                continue;
            }
            if (job.adminPriority() > 0) {
                out.put(job.id(), job.adminPriority());
                continue;
            }
            double age = Math.min(1.0, Math.max(0, now - job.eligibleTime()) / (double) Math.max(1, w.maxAgeSeconds()));
            double used = totalUsage == 0
                    ? 0
                    : usage.getOrDefault(job.request().owner().uid(), 0.0) / totalUsage;
            double fairshare = Math.pow(2, -used / share);
            int cpus = job.request().effectiveTasks() * job.request().effectiveCpusPerTask();
            double size = Math.min(1.0, cpus / (double) Math.max(1, totalCpus));
            if (w.favorSmall()) {
                size = 1.0 - size;
            }
            int factor = image.partition(job.partition())
                    .map(Partition::priorityJobFactor)
                    .orElse(1);
            double partition = factor / (double) Math.max(1, maxJobFactor);
            double sum = w.age() * age
                    + w.fairshare() * fairshare
                    + w.jobSize() * size
                    + w.partition() * partition
                    + w.qos() * qos.factor(job.request().qos());
            out.put(job.id(), Math.max(1, Math.round(sum) - job.request().nice()));
        }
        return out;
    }

    /** Slurm holds a job by giving it priority 0 ({@code sbatch -H}, {@code scontrol hold}). */
    private static boolean isHeld(Job job) {
        // A held job that was cancelled keeps the 0 it waited with.
        return (job.isPending() || job.state().isFinished()) && job.hold() != Job.Hold.NONE;
    }

    /** CPU-seconds per uid, each job's weight halved every half-life since it ended (or now). */
    static Map<Integer, Double> usageByUser(ClusterImage image, PriorityWeights w, long now) {
        Map<Integer, Double> usage = new HashMap<>();
        for (Job job : image.jobs()) {
            if (job.allocation() == null || job.startTime() == 0) {
                continue;
            }
            long end = job.endTime() > 0 ? job.endTime() : now;
            double cpuSeconds = (double) job.allocation().totalCpus() * Math.max(0, end - job.startTime());
            double decay = Math.pow(0.5, Math.max(0, now - end) / (double) Math.max(1, w.decayHalfLifeSeconds()));
            usage.merge(job.request().owner().uid(), cpuSeconds * decay, Double::sum);
        }
        return usage;
    }
}
