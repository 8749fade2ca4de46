package dev.sluice.ctld.limits;

import dev.sluice.common.gres.GresRequest;
import dev.sluice.common.tres.Tres;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.JobRequest;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The TRES a job counts against the limits, as a {@link Tres}: what it asks for while pending
 * (tasks times CPUs per task, its nodes, its memory, its GPUs and other GRES), what it holds
 * once running. Pure.
 */
public final class JobTres {
    private JobTres() {}

    /** What a running job holds. */
    public static Tres of(Allocation a) {
        Map<String, Long> out = new TreeMap<>();
        out.put("cpu", (long) a.totalCpus());
        out.put("node", (long) a.nodes().size());
        out.put("mem", a.totalMemoryMb());
        for (Allocation.NodeShare n : a.nodes()) {
            n.gres().forEach(g -> out.merge("gres/" + g.name(), (long) g.count(), Long::sum));
        }
        return Tres.of(out);
    }

    /**
     * What a job asks on each node, as Slurm checks MaxTRESPerNode: each count divided (whole
     * numbers) by its node count, when that is above 1.
     */
    public static Tres perNode(Tres wanted) {
        long nodes = wanted.get("node");
        if (nodes <= 1) {
            return wanted;
        }
        Map<String, Long> out = new TreeMap<>();
        wanted.asMap().forEach((name, count) -> out.put(name, count / nodes));
        return Tres.of(out);
    }

    /** What a pending job asks for, from its options as parsed when it arrived. */
    public static Tres of(JobRequest r) {
        Map<String, Long> out = new TreeMap<>();
        long tasks = r.effectiveTasks();
        long cpus = tasks * r.effectiveCpusPerTask();
        long nodes = r.effectiveMinNodes();
        out.put("cpu", cpus);
        out.put("node", nodes);
        long mem = r.memory().perNodeMb() > 0
                ? r.memory().perNodeMb() * nodes
                : r.memory().perCpuMb() > 0 ? r.memory().perCpuMb() * cpus : 0;
        out.put("mem", mem);
        for (GresRequest g : r.gres().items()) {
            out.merge("gres/" + g.name().toLowerCase(Locale.ROOT), g.count() * nodes, Long::sum);
        }
        JobRequest.GpuOptions g = r.gpuOptions();
        long gpus = g.gpus().count()
                + g.gpusPerNode().count() * nodes
                + g.gpusPerTask().count() * tasks;
        if (gpus > 0) {
            out.merge("gres/gpu", gpus, Long::sum);
        }
        return Tres.of(out);
    }
}
