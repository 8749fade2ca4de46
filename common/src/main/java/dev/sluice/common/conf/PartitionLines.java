package dev.sluice.common.conf;

import dev.sluice.common.hostlist.HostList;
import dev.sluice.common.slurm.PartitionState;
import dev.sluice.common.time.TimeLimit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns {@code PartitionName} lines into {@link PartitionConf}s: {@code PartitionName=DEFAULT}
 * defaults, {@code Shared} as the old name of {@code OverSubscribe}, and {@code Nodes=} resolved
 * against the configured nodes ({@code ALL}, hostlists, NodeSet names). Like slurmctld 22.05 it
 * rejects a partition naming an unknown node ("Invalid node names in partition") and a partition
 * defined twice.
 */
final class PartitionLines {

    private PartitionLines() {}

    static List<PartitionConf> build(
            List<List<ConfEntry>> lines, List<NodeConf> nodes, Map<String, NodeSetConf> nodeSets, List<String> warnings)
            throws ConfigException {
        Map<String, ConfEntry> defaults = new HashMap<>();
        Map<String, PartitionConf> parts = new LinkedHashMap<>();
        Set<String> nodeNames = new LinkedHashSet<>();
        nodes.forEach(n -> nodeNames.add(n.name()));
        for (List<ConfEntry> line : lines) {
            ConfEntry head = line.getFirst();
            Map<String, ConfEntry> own = new HashMap<>();
            for (ConfEntry e : line.subList(1, line.size())) {
                own.put(e.key().equals("Shared") ? "OverSubscribe" : e.key(), e);
            }
            if (head.value().equalsIgnoreCase("DEFAULT")) {
                defaults.putAll(own);
                continue;
            }
            Map<String, ConfEntry> eff = new HashMap<>(defaults);
            eff.putAll(own);
            if (parts.containsKey(head.value())) {
                throw head.error("duplicate entry for partition " + head.value());
            }
            parts.put(head.value(), partition(head, eff, nodeNames, nodeSets, warnings));
        }
        return List.copyOf(parts.values());
    }

    private static PartitionConf partition(
            ConfEntry head,
            Map<String, ConfEntry> eff,
            Set<String> allNodes,
            Map<String, NodeSetConf> nodeSets,
            List<String> warnings)
            throws ConfigException {
        String at = ConfSource.of(head) + ": ";
        String overSubscribe = PartitionValues.overSubscribe(eff.get("OverSubscribe"), at, warnings);
        String selectType = PartitionValues.selectTypeParameters(eff.get("SelectTypeParameters"));
        PartitionValues.preemptMode(eff.get("PreemptMode"));
        String cpuBind = NodeLines.str(eff, "CpuBind", "");
        if (!cpuBind.isEmpty() && !NodeLines.CPU_BIND.contains(cpuBind.toLowerCase(java.util.Locale.ROOT))) {
            warnings.add(at + "Partition=" + head.value() + " CpuBind='" + cpuBind + "' is invalid, ignored");
        }
        long defMemPerCpu = NodeLines.num(eff, "DefMemPerCPU", 0);
        if (eff.containsKey("DefMemPerCPU") && eff.containsKey("DefMemPerNode")) {
            warnings.add(at + "DefMemPerCPU ignored, since it's mutually exclusive with DefMemPerNode");
            defMemPerCpu = 0;
        }
        ConfEntry nodesEntry = eff.get("Nodes");
        String nodesExpr = nodesEntry == null ? "" : nodesEntry.value();
        List<String> members =
                nodesEntry == null ? List.of() : resolveNodes(nodesEntry, allNodes, nodeSets, head.value());
        PartitionState state = PartitionState.parse(NodeLines.str(eff, "State", "UP"))
                .orElseThrow(() -> eff.get("State")
                        .error("Invalid partition state \"" + eff.get("State").value() + "\""));
        return PartitionConf.builder(head.value())
                .nodes(members, nodesExpr)
                .isDefault(bool(eff, "Default"))
                .state(state)
                .allowGroups(Values.list(NodeLines.str(eff, "AllowGroups", "ALL")))
                .allowAccounts(Values.list(NodeLines.str(eff, "AllowAccounts", "ALL")))
                .allowQos(Values.list(NodeLines.str(eff, "AllowQos", "ALL")))
                .denyAccounts(Values.list(NodeLines.str(eff, "DenyAccounts", "")))
                .denyQos(Values.list(NodeLines.str(eff, "DenyQos", "")))
                .exclusiveUser(bool(eff, "ExclusiveUser"))
                .rootOnly(bool(eff, "RootOnly"))
                .reqResv(bool(eff, "ReqResv"))
                .hidden(bool(eff, "Hidden"))
                .maxTimeMinutes(time(eff, "MaxTime", TimeLimit.INFINITE))
                .defaultTimeMinutes(time(eff, "DefaultTime", TimeLimit.NOT_SET))
                .maxNodes(NodeLines.num(eff, "MaxNodes", PartitionConf.UNLIMITED))
                .minNodes(NodeLines.num(eff, "MinNodes", 0))
                .maxCpusPerNode(NodeLines.num(eff, "MaxCPUsPerNode", PartitionConf.UNLIMITED))
                .memory(new PartitionConf.Memory(
                        defMemPerCpu,
                        NodeLines.num(eff, "DefMemPerNode", 0),
                        NodeLines.num(eff, "MaxMemPerCPU", 0),
                        NodeLines.num(eff, "MaxMemPerNode", 0)))
                .priorityTier((int) NodeLines.num(eff, "PriorityTier", NodeLines.num(eff, "Priority", 1)))
                .priorityJobFactor((int) NodeLines.num(eff, "PriorityJobFactor", NodeLines.num(eff, "Priority", 1)))
                .overSubscribe(overSubscribe)
                .preemptMode(NodeLines.str(eff, "PreemptMode", ""))
                .graceTimeSeconds(NodeLines.num(eff, "GraceTime", 0))
                .lln(bool(eff, "LLN"))
                .selectTypeParameters(selectType)
                .qos(NodeLines.str(eff, "QOS", ""))
                .tresBillingWeights(NodeLines.str(eff, "TRESBillingWeights", ""))
                .source(ConfSource.of(head))
                .build();
    }

    static List<String> resolveNodes(ConfEntry e, Set<String> allNodes, Map<String, NodeSetConf> nodeSets, String owner)
            throws ConfigException {
        Set<String> wanted = new LinkedHashSet<>();
        for (String item : topLevelItems(e.value())) {
            if (item.equalsIgnoreCase("ALL")) {
                wanted.addAll(allNodes);
            } else if (nodeSets.containsKey(item)) {
                wanted.addAll(nodeSets.get(item).nodeNames());
            } else {
                try {
                    wanted.addAll(HostList.expand(item));
                } catch (IllegalArgumentException ex) {
                    throw e.error(ex.getMessage());
                }
            }
        }
        for (String n : wanted) {
            if (!allNodes.contains(n)) {
                throw e.error("Invalid node names in partition " + owner + ": \"" + n
                        + "\" is not defined by any NodeName line");
            }
        }
        // Slurm keeps partition members as a bitmap, i.e. in node-definition order.
        List<String> ordered = new ArrayList<>();
        for (String n : allNodes) {
            if (wanted.contains(n)) {
                ordered.add(n);
            }
        }
        return ordered;
    }

    static List<String> topLevelItems(String value) {
        List<String> items = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '[') {
                depth++;
            } else if (c == ']') {
                depth--;
            } else if (c == ',' && depth == 0) {
                items.add(value.substring(start, i).strip());
                start = i + 1;
            }
        }
        items.add(value.substring(start).strip());
        items.removeIf(String::isEmpty);
        return items;
    }

    private static boolean bool(Map<String, ConfEntry> eff, String key) {
        ConfEntry e = eff.get(key);
        if (e == null) {
            return false;
        }
        try {
            return Values.bool(e);
        } catch (ConfigException ex) {
            throw new IllegalStateException("value was checked by the first pass", ex);
        }
    }

    private static long time(Map<String, ConfEntry> eff, String key, long dflt) throws ConfigException {
        ConfEntry e = eff.get(key);
        if (e == null) {
            return dflt;
        }
        try {
            return TimeLimit.parseMinutes(e.value());
        } catch (IllegalArgumentException ex) {
            throw e.error("Bad value \"" + e.value() + "\" for " + key + ": " + ex.getMessage());
        }
    }
}
