package dev.sluice.ctld.limits;

import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.JobRequest;
import java.util.Collections;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The TRES a job counts against the limits: what it asks for while pending (tasks times CPUs per
 * task, its nodes, its memory, its GPUs and other GRES), what it holds once running. Pure.
 */
public record JobTres(Map<String, Long> counts) {
    public static final JobTres NONE = new JobTres(Map.of());

    public JobTres {
        counts = Collections.unmodifiableMap(new TreeMap<>(counts));
    }

    public long get(String name) {
        return counts.getOrDefault(name, 0L);
    }

    public JobTres plus(JobTres other) {
        Map<String, Long> out = new HashMap<>(counts);
        other.counts.forEach((k, v) -> out.merge(k, v, Long::sum));
        return new JobTres(out);
    }

    /** What a running job holds. */
    public static JobTres of(Allocation a) {
        Map<String, Long> out = new HashMap<>();
        out.put("cpu", (long) a.totalCpus());
        out.put("node", (long) a.nodes().size());
        out.put("mem", a.totalMemoryMb());
        for (Allocation.NodeShare n : a.nodes()) {
            n.gres().forEach(g -> out.merge("gres/" + g.name(), (long) g.count(), Long::sum));
        }
        return new JobTres(out);
    }

    /** What a pending job asks for; GRES options that do not parse count nothing (submit refused them). */
    public static JobTres of(JobRequest r) {
        Map<String, Long> out = new HashMap<>();
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
        return new JobTres(out);
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
