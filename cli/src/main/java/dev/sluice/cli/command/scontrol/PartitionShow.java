package dev.sluice.cli.command.scontrol;

import dev.sluice.cli.view.NodeLists;
import dev.sluice.cli.view.PartitionTotals;
import dev.sluice.common.slurm.SlurmLimits;
import dev.sluice.common.time.TimeLimit;
import dev.sluice.protocol.WireStates;
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
        PartitionTotals totals = PartitionTotals.of(p, nodesByName);
        List<String> names = PartitionTotals.names(p);
        long cpus = totals.cpus();
        long nodeCount = totals.nodes();

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
        l.add("State=" + WireStates.partitionState(p.getState()).map(Enum::name).orElse("UNKNOWN") + " TotalCPUs="
                + cpus + " TotalNodes=" + nodeCount + " SelectTypeParameters=NONE");
        l.add("JobDefaults=(null)");
        l.add((p.getDefMemPerCpuMb() > 0 ? "DefMemPerCPU=" + p.getDefMemPerCpuMb() : "DefMemPerNode=UNLIMITED")
                + " MaxMemPerNode="
                + (p.getMaxMemPerNodeMb() > 0 ? Long.toString(p.getMaxMemPerNodeMb()) : "UNLIMITED"));
        l.add("TRES=" + totals.tres().format());
        return l;
    }

    private static String orAll(String s) {
        return s.isEmpty() ? "ALL" : s;
    }

    private static String unlimited(int wire) {
        return wire == 0 || wire == SlurmLimits.INFINITE32 ? "UNLIMITED" : Integer.toUnsignedString(wire);
    }
}
