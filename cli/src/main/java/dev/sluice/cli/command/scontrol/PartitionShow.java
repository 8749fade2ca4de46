package dev.sluice.cli.command.scontrol;

import dev.sluice.cli.view.NodeLists;
import dev.sluice.common.slurm.SlurmLimits;
import dev.sluice.common.time.TimeLimit;
import dev.sluice.common.tres.Tres;
import dev.sluice.protocol.v1.NodeInfo;
import dev.sluice.protocol.v1.PartitionInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** {@code scontrol show partition}: Slurm 22.05's layout. */
final class PartitionShow {
    private PartitionShow() {}

    /** @param nodesByName the cluster's nodes, for the partition's TRES totals */
    static List<String> lines(PartitionInfo p, Map<String, NodeInfo> nodesByName) {
        List<NodeInfo> nodes = new ArrayList<>();
        List<String> names = p.getNodeNamesCount() > 0 ? p.getNodeNamesList() : expand(p.getNodes());
        for (String name : names) {
            NodeInfo n = nodesByName.get(name);
            if (n != null) {
                nodes.add(n);
            }
        }
        long cpus = p.getTotalCpus() > 0
                ? Integer.toUnsignedLong(p.getTotalCpus())
                : nodes.stream()
                        .mapToLong(n -> Integer.toUnsignedLong(n.getCpus()))
                        .sum();
        long nodeCount = p.getTotalNodes() > 0 ? Integer.toUnsignedLong(p.getTotalNodes()) : names.size();
        long mem = nodes.stream().mapToLong(NodeInfo::getRealMemoryMb).sum();

        List<String> l = new ArrayList<>();
        l.add("PartitionName=" + p.getName());
        l.add("AllowGroups=" + orAll(p.getAllowGroups()) + " AllowAccounts=" + orAll(p.getAllowAccounts())
                + " AllowQos=" + orAll(p.getAllowQos()));
        l.add("AllocNodes=ALL Default=" + Layout.yesNo(p.getIsDefault()) + " QoS="
                + (p.getQos().isEmpty() ? "N/A" : p.getQos()));
        l.add("DefaultTime="
                + (p.getDefaultTimeMinutes() == 0
                        ? "NONE"
                        : TimeLimit.format(SlurmLimits.fromWire(p.getDefaultTimeMinutes())))
                + " DisableRootJobs=NO ExclusiveUser=" + Layout.yesNo(p.getExclusiveUser()) + " GraceTime="
                + p.getGraceTimeSeconds() + " Hidden="
                + Layout.yesNo(p.getHidden()));
        l.add("MaxNodes=" + unlimited(p.getMaxNodes()) + " MaxTime="
                + TimeLimit.format(SlurmLimits.fromWire(p.getMaxTimeMinutes())) + " MinNodes="
                + Integer.toUnsignedString(p.getMinNodes()) + " LLN=NO MaxCPUsPerNode=UNLIMITED");
        l.add("Nodes=" + NodeLists.rangedOrNull(p.getNodes().isEmpty() ? String.join(",", names) : p.getNodes()));
        l.add("PriorityJobFactor=" + p.getPriorityJobFactor() + " PriorityTier=" + p.getPriorityTier() + " RootOnly="
                + Layout.yesNo(p.getRootOnly()) + " ReqResv=NO OverSubscribe="
                + (p.getOverSubscribe().isEmpty() ? "NO" : p.getOverSubscribe()));
        l.add("OverTimeLimit=NONE PreemptMode=" + (p.getPreemptMode().isEmpty() ? "OFF" : p.getPreemptMode()));
        l.add("State=" + (p.getState().isEmpty() ? "UP" : p.getState()) + " TotalCPUs=" + cpus + " TotalNodes="
                + nodeCount + " SelectTypeParameters=NONE");
        l.add("JobDefaults=(null)");
        l.add((p.getDefMemPerCpuMb() > 0 ? "DefMemPerCPU=" + p.getDefMemPerCpuMb() : "DefMemPerNode=UNLIMITED")
                + " MaxMemPerNode="
                + (p.getMaxMemPerNodeMb() > 0 ? Long.toString(p.getMaxMemPerNodeMb()) : "UNLIMITED"));
        Tres tres = Tres.empty()
                .with("cpu", cpus)
                .with("mem", mem)
                .with("node", nodeCount)
                .with("billing", cpus);
        l.add("TRES=" + tres.plus(nodeGres(nodes)).format());
        return l;
    }

    /** The GRES of the partition's nodes, summed name by name from their CfgTRES. */
    private static Tres nodeGres(List<NodeInfo> nodes) {
        java.util.Map<String, Long> totals = new java.util.TreeMap<>();
        for (NodeInfo n : nodes) {
            Tres.parse(n.getCfgTres()).asMap().forEach((k, v) -> {
                if (k.startsWith("gres/")) {
                    totals.merge(k, v, Long::sum);
                }
            });
        }
        return Tres.of(totals);
    }

    private static String orAll(String s) {
        return s.isEmpty() ? "ALL" : s;
    }

    private static String unlimited(int wire) {
        return wire == 0 || wire == SlurmLimits.INFINITE32 ? "UNLIMITED" : Integer.toUnsignedString(wire);
    }

    private static List<String> expand(String nodes) {
        if (nodes.isBlank()) {
            return List.of();
        }
        try {
            return dev.sluice.common.hostlist.HostList.expand(nodes);
        } catch (IllegalArgumentException e) {
            return List.of();
        }
    }
}
