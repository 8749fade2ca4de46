package dev.sluice.ctld.queue;

import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.Job;
import java.util.HashMap;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Job priorities as Slurm computes them. {@code priority/basic}: older jobs first (the first job
 * gets 4294901759 and each later one one less). {@code priority/multifactor}: the weighted sum of
 * age, fair-share, job size, partition and QOS factors, each in [0, 1], minus the job's nice
 * value ({@link QosPriorities} for the QOS factor);
 * fair-share is {@link FairShare}'s factor.
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
        return compute(image, w, qos, null, now);
    }

    /** @param fairShare each job's fair-share factor; null: {@link FairShare}'s */
    public static Map<Integer, Long> compute(
            ClusterImage image, PriorityWeights w, QosPriorities qos, ToDoubleFunction<Job> fairShare, long now) {
        if (!w.multifactor()) {
            return new BasicPriorities(image);
        }
        Map<Integer, Long> out = new HashMap<>();
        factors(image, w, qos, fairShare, now).forEach((id, f) -> out.put(id, f.priority()));
        for (Job job : image.jobs()) {
            if (isHeld(job)) {
                out.put(job.id(), 0L);
            }
        }
        return out;
    }

    /**
     * Every pending, unheld job's factors under {@code priority/multifactor} (sprio shows them;
     * the scheduler orders by their {@link PriorityFactors#priority()}); empty under
     * {@code priority/basic}. A job with an administrator's priority keeps its factors but takes that value.
     */
    public static Map<Integer, PriorityFactors> factors(
            ClusterImage image, PriorityWeights w, QosPriorities qos, long now) {
        return factors(image, w, qos, null, now);
    }

    /**
     * The same with each job's fair-share factor given (the associations' Fair Tree, where a
     * job whose user has no association gets 0); null: {@link FairShare}'s, from usage alone.
     */
    public static Map<Integer, PriorityFactors> factors(
            ClusterImage image, PriorityWeights w, QosPriorities qos, ToDoubleFunction<Job> fairShare, long now) {
        Map<Integer, PriorityFactors> out = new HashMap<>();
        if (!w.multifactor()) {
            return out;
        }
        FairShare shares = FairShare.of(image, w, now);
        int totalCpus =
                image.nodes().stream().mapToInt(v -> v.node().hardware().cpus()).sum();
        int totalNodes = image.nodes().size();
        int maxJobFactor = image.partitions().stream()
                .mapToInt(p -> p.scheduling().priorityJobFactor())
                .max()
                .orElse(1);
        for (Job job : image.pendingJobs()) {
            if (isHeld(job)) {
                continue;
            }
            long at = w.calculatedAt(job.run().submitTime(), now);
            double age =
                    Math.min(1.0, Math.max(0, at - job.run().eligibleTime()) / (double) Math.max(1, w.maxAgeSeconds()));
            double fairshare = fairShare != null
                    ? fairShare.applyAsDouble(job)
                    : shares.factor(job.request().owner().uid());
            // Slurm 22.05 (observed): the mean of the node and CPU fractions the job asks for.
            int cpus = job.request().effectiveTasks() * job.request().effectiveCpusPerTask();
            double nodes = Math.max(1, job.request().size().minNodes());
            double size = Math.min(1.0, (nodes / Math.max(1, totalNodes) + cpus / (double) Math.max(1, totalCpus)) / 2);
            if (w.favorSmall()) {
                size = 1.0 - size;
            }
            int factor = image.partition(job.terms().partition())
                    .map(p -> p.scheduling().priorityJobFactor())
                    .orElse(1);
            double partition = factor / (double) Math.max(1, maxJobFactor);
            double qosFactor = qos.factor(job.request().qos());
            double sum = w.age() * age
                    + w.fairshare() * fairshare
                    + w.jobSize() * size
                    + w.partition() * partition
                    + w.qos() * qosFactor;
            double net = sum - job.request().nice();
            long priority = job.terms().adminPriority() > 0 ? job.terms().adminPriority() : Math.max(1, (long) net);
            out.put(
                    job.id(),
                    new PriorityFactors(
                            job.id(),
                            age,
                            fairshare,
                            size,
                            partition,
                            qosFactor,
                            job.request().nice(),
                            priority,
                            job.terms().adminPriority() > 0 ? priority : Math.max(1, net)));
        }
        return out;
    }

    /** Slurm holds a job by giving it priority 0 ({@code sbatch -H}, {@code scontrol hold}). */
    static boolean isHeld(Job job) {
        // A held job that was cancelled keeps the 0 it waited with.
        return (job.isPending() || job.status().state().isFinished())
                && job.terms().hold() != Job.Hold.NONE;
    }
}
