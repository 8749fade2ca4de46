package dev.sluice.cli.command.scontrol;

import dev.sluice.cli.view.GresText;
import dev.sluice.common.hostlist.HostList;
import dev.sluice.common.hostlist.IndexRanges;
import dev.sluice.protocol.v1.GresGrant;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.protocol.v1.NodeGres;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code scontrol show job -d} adds for a job that got nodes (Slurm 22.05, observed on the
 * oracle): {@code JOB_GRES=} (the job's GRES by name, {@code (null)} for none) and one line per
 * run of nodes holding the same CPUs, memory and GRES: {@code Nodes=n1 CPU_IDs=0-1 Mem=0
 * GRES=gpu:1(IDX:0)}. An ended job keeps its CPUs there but shows no GRES.
 */
final class JobDetail {
    private JobDetail() {}

    static List<String> lines(JobInfo info) {
        if (info.getNodeGresCount() == 0) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        out.add("JOB_GRES=" + jobGres(info.getNodeGresList()));
        boolean holdsGres = info.getState() == JobState.RUNNING || info.getState() == JobState.SUSPENDED;
        List<String> run = new ArrayList<>();
        String shown = null;
        for (NodeGres n : info.getNodeGresList()) {
            String rest = " CPU_IDs=" + IndexRanges.format(n.getCpuIdsList()) + " Mem=" + n.getMemoryMb() + " GRES="
                    + (holdsGres ? GresText.ofNode(n.getGrantsList()) : "");
            if (!rest.equals(shown) && !run.isEmpty()) {
                out.add(nodesLine(run, shown));
                run.clear();
            }
            run.add(n.getNode());
            shown = rest;
        }
        out.add(nodesLine(run, shown));
        return out;
    }

    // Indented two more than the record's lines; -o joins it after the usual single space.
    private static String nodesLine(List<String> nodes, String rest) {
        return "  Nodes=" + HostList.compress(nodes) + rest;
    }

    /** The job's GRES summed by name (and type): {@code gpu:2}, {@code gpu:a100:2,mps:50}. */
    private static String jobGres(List<NodeGres> nodes) {
        Map<String, Long> total = new LinkedHashMap<>();
        for (NodeGres n : nodes) {
            for (GresGrant g : n.getGrantsList()) {
                total.merge(name(g), g.getCount(), Long::sum);
            }
        }
        if (total.isEmpty()) {
            return "(null)";
        }
        List<String> parts = new ArrayList<>();
        total.forEach((name, count) -> parts.add(name + ":" + count));
        return String.join(",", parts);
    }

    private static String name(GresGrant g) {
        return g.getType().isEmpty() ? g.getName() : g.getName() + ":" + g.getType();
    }
}
