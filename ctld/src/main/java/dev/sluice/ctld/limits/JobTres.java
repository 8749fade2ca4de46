package dev.sluice.ctld.limits;

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

    /** What a pending job asks for; GRES options that do not parse count nothing (submit refused them). */
    public static Tres of(JobRequest r) {
        Map<String, Long> out = new TreeMap<>();
        long tasks = r.effectiveTasks();
        long cpus = tasks * r.effectiveCpusPerTask();
        long nodes = r.effectiveMinNodes();
        out.put("cpu", cpus);
        out.put("node", nodes);
        long mem = r.memPerNodeMb() > 0 ? r.memPerNodeMb() * nodes : r.memPerCpuMb() > 0 ? r.memPerCpuMb() * cpus : 0;
        out.put("mem", mem);
        for (String item :
                r.gresPerNode() == null ? new String[0] : r.gresPerNode().split(",")) {
            String[] f = item.strip().split(":");
            if (f.length == 0 || f[0].isEmpty()) {
                continue;
            }
            long n = f.length == 1 ? 1 : count(f[f.length - 1]);
            out.merge("gres/" + f[0].toLowerCase(Locale.ROOT), n * nodes, Long::sum);
        }
        JobRequest.GpuOptions g = r.gpuOptions();
        long gpus = typed(g.gpus()) + typed(g.gpusPerNode()) * nodes + typed(g.gpusPerTask()) * tasks;
        if (gpus > 0) {
            out.merge("gres/gpu", gpus, Long::sum);
        }
        return Tres.of(out);
    }

    /** {@code [type:]count}; 0 when empty or not a number. */
    private static long typed(String text) {
        if (text == null || text.isBlank()) {
            return 0;
        }
        String t = text.strip();
        return count(t.substring(t.lastIndexOf(':') + 1));
    }

    private static long count(String s) {
        try {
            return Math.max(0, Long.parseLong(s.strip()));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
