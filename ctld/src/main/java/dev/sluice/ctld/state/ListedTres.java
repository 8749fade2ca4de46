package dev.sluice.ctld.state;

import dev.sluice.common.gres.GresRequest;
import dev.sluice.common.tres.Tres;
import dev.sluice.ctld.gres.GresGrant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.ToLongFunction;

/**
 * A job's TRES as Slurm lists them ({@code ReqTRES}, {@code AllocTRES}) and accounts them: one
 * definition for the listings and for accounting's record, so sacct shows what scontrol showed.
 * Not the TRES a job counts against limits ({@code limits.JobTres}): those count a pending job's
 * nodes and memory as asked, without a partition's node size. Pure.
 */
public final class ListedTres {
    private ListedTres() {}

    /** The CPUs a job is shown with: those it holds, or while it holds none, tasks × CPUs per task. */
    public static int cpus(Job job) {
        JobRequest r = job.request();
        return job.allocation() != null ? job.allocation().totalCpus() : r.effectiveTasks() * r.effectiveCpusPerTask();
    }

    /**
     * The nodes a job is shown with: those it holds, or an estimate ({@link #pendingNodes}).
     *
     * @param cpusPerNode its partition's largest node CPU count; 0 for no estimate
     */
    public static int nodes(Job job, int cpus, int cpusPerNode) {
        return job.allocation() != null
                ? job.allocation().nodes().size()
                : pendingNodes(job.request(), cpus, cpusPerNode);
    }

    /**
     * How many nodes a job that holds none is shown with: what it asked for, or more where its
     * CPUs need more of the partition's largest nodes (Slurm 22.05 shows {@code sbatch -n9} on
     * 4-CPU nodes as 3 nodes while it waits), never over its maximum.
     */
    static int pendingNodes(JobRequest r, int cpus, int cpusPerNode) {
        int min = r.effectiveMinNodes();
        if (cpusPerNode <= 0) {
            return min;
        }
        int guess = Math.max(min, (cpus + cpusPerNode - 1) / cpusPerNode);
        return r.size().maxNodes() > 0 ? Math.min(guess, Math.max(min, r.size().maxNodes())) : guess;
    }

    /**
     * ReqTRES: what the job asked for, with its GRES and licenses.
     *
     * @param partitionMemory a partition's smallest RealMemory: a job that asked for no memory
     *     is counted with a whole node's
     * @param trackedLicenses the licenses AccountingStorageTRES names ({@link Tres#trackedLicenses})
     */
    public static Tres requested(
            Job job, int cpus, int nodes, ToLongFunction<String> partitionMemory, Set<String> trackedLicenses) {
        JobRequest r = job.request();
        long memMb =
                requestedMemory(r, cpus, nodes, partitionMemory, job.terms().partition());
        return withLicenses(withGres(tres(cpus, memMb, nodes), r, nodes), r, trackedLicenses);
    }

    /**
     * AllocTRES: what the job holds, with its GRES and licenses.
     *
     * @param memoryConsumable SelectTypeParameters with memory: otherwise no {@code mem=}
     *     (Slurm 22.05 under CR_Core: {@code TRES=cpu=1,node=1,billing=1} for {@code --mem=1000})
     * @param trackedLicenses the licenses AccountingStorageTRES names ({@link Tres#trackedLicenses})
     */
    public static Tres allocated(Allocation a, JobRequest r, boolean memoryConsumable, Set<String> trackedLicenses) {
        Tres held = tres(
                a.totalCpus(),
                memoryConsumable ? a.totalMemoryMb() : 0,
                a.nodes().size());
        return withLicenses(withGres(held, a), r, trackedLicenses);
    }

    private static long requestedMemory(
            JobRequest r, int cpus, int nodes, ToLongFunction<String> partitionMemory, String partition) {
        if (r.memory().perNodeMb() > 0) {
            return r.memory().perNodeMb() * r.effectiveMinNodes();
        }
        if (r.memory().perCpuMb() > 0) {
            return r.memory().perCpuMb() * cpus;
        }
        // No memory asked for: the job is counted with a whole node's (Slurm: mem=8000M per node).
        return partitionMemory.applyAsLong(partition) * nodes;
    }

    /** A pending job's GRES as its TRES counts them: {@code gres/gpu=2} for two nodes of gpu:1. */
    private static Tres withGres(Tres tres, JobRequest r, int nodes) {
        Map<String, Long> totals = new TreeMap<>();
        for (GresRequest g : r.gres().items()) {
            totals.merge(g.name(), g.count() * nodes, Long::sum);
        }
        GpuCount perNode = r.gpuOptions().gpusPerNode();
        if (!perNode.text().isBlank()) {
            totals.merge("gpu", perNode.count() * nodes, Long::sum);
        }
        GpuCount perJob = r.gpuOptions().gpus();
        if (!perJob.text().isBlank()) {
            totals.merge("gpu", perJob.count(), Long::sum);
        }
        return withGres(tres, totals);
    }

    /** AllocTRES with its GRES: {@code gres/gpu=4} (and mps, shard, others) by name. */
    private static Tres withGres(Tres tres, Allocation a) {
        Map<String, Long> totals = new TreeMap<>();
        for (Allocation.NodeShare share : a.nodes()) {
            for (GresGrant g : share.gres()) {
                totals.merge(g.name(), g.count(), Long::sum);
            }
        }
        return withGres(tres, totals);
    }

    private static Tres withGres(Tres tres, Map<String, Long> totals) {
        Tres out = tres;
        for (Map.Entry<String, Long> e : totals.entrySet()) {
            out = out.with("gres/" + e.getKey(), e.getValue());
        }
        return out;
    }

    /**
     * The job's licenses as TRES ({@code license/foo=2}), which Slurm counts for the job's whole
     * allocation, but only those AccountingStorageTRES names: Slurm 22.05 shows
     * {@code TRES=cpu=1,node=1,billing=1} for {@code -L foo:3} otherwise (compat scenario 173).
     */
    private static Tres withLicenses(Tres tres, JobRequest r, Set<String> trackedLicenses) {
        Tres out = tres;
        for (Map.Entry<String, Long> e : r.licenses().counts().entrySet()) {
            if (trackedLicenses.contains(e.getKey())) {
                out = out.with(Tres.LICENSE + e.getKey(), e.getValue());
            }
        }
        return out;
    }

    /** A job's TRES as Slurm prints them: {@code cpu=2,mem=256M,node=1,billing=2}. */
    private static Tres tres(int cpus, long memMb, int nodes) {
        // One map, not a copy per item (Tres.with copies): every job is mapped several times.
        Map<String, Long> counts = new LinkedHashMap<>(8);
        counts.put("cpu", (long) cpus);
        if (memMb > 0) {
            counts.put("mem", memMb);
        }
        counts.put("node", (long) nodes);
        counts.put("billing", (long) cpus);
        return Tres.of(counts);
    }
}
