package dev.sluice.restd.v0038;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.cli.view.PartitionTotals;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.slurm.SlurmLimits;
import dev.sluice.protocol.WireStates;
import dev.sluice.protocol.v1.*;
import dev.sluice.restd.controller.ControllerSession;
import dev.sluice.restd.http.Reply;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** ping, nodes and partitions in v0.0.38's shapes, from what scontrol asks the controller. */
final class Cluster38 {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private Cluster38() {}

    static Reply ping(ControllerSession controller) throws ControllerException {
        PingResponse ping = controller
                .call(ClientRequest.newBuilder().setPing(PingRequest.getDefaultInstance()))
                .getPing();
        Envelope38 out = new Envelope38();
        out.body()
                .putArray("pings")
                .addObject()
                .put("hostname", ping.getController())
                .put("ping", "UP")
                .put("status", 0)
                .put("mode", "primary");
        return out.reply(200);
    }

    static Map<String, NodeInfo> nodeMap(ControllerSession controller, List<String> names) throws ControllerException {
        GetNodesResponse answer = controller
                .call(ClientRequest.newBuilder()
                        .setGetNodes(GetNodesRequest.newBuilder().addAllNames(names)))
                .getGetNodes();
        Map<String, NodeInfo> byName = new LinkedHashMap<>();
        answer.getNodesList().forEach(n -> byName.put(n.getName(), n));
        return byName;
    }

    /** GET nodes, or node/{name} when {@code name} is given. */
    static Reply nodes(ControllerSession controller, String name) throws ControllerException {
        Envelope38 out = new Envelope38();
        Map<String, NodeInfo> nodes;
        try {
            nodes = nodeMap(controller, name == null ? List.of() : List.of(name));
        } catch (ControllerException e) {
            nodes = Map.of();
        }
        ArrayNode list = out.body().putArray("nodes");
        if (name != null && !nodes.containsKey(name)) {
            out.errno(ErrorCode.INVALID_NODE_NAME.number(), ErrorCode.INVALID_NODE_NAME.text());
            return out.reply(500);
        }
        nodes.values().forEach(n -> list.add(node(n)));
        return out.reply(200);
    }

    /** GET partitions, or partition/{name} when {@code name} is given. */
    static Reply partitions(ControllerSession controller, String name) throws ControllerException {
        Envelope38 out = new Envelope38();
        List<PartitionInfo> partitions = controller
                .call(ClientRequest.newBuilder().setGetPartitions(GetPartitionsRequest.getDefaultInstance()))
                .getGetPartitions()
                .getPartitionsList()
                .stream()
                .filter(p -> name == null || p.getName().equals(name))
                .toList();
        ArrayNode list = out.body().putArray("partitions");
        if (name != null && partitions.isEmpty()) {
            out.errno(ErrorCode.INVALID_PARTITION_NAME.number(), ErrorCode.INVALID_PARTITION_NAME.text());
            return out.reply(500);
        }
        Map<String, NodeInfo> nodes = nodeMap(controller, List.of());
        partitions.forEach(p -> list.add(partition(p, nodes)));
        return out.reply(200);
    }

    static ObjectNode node(NodeInfo n) {
        ObjectNode o = F.objectNode();
        o.put("architecture", n.getArch());
        o.put("burstbuffer_network_address", "");
        o.put("boards", n.getBoards());
        o.put("boot_time", n.getBootTime());
        o.put("comment", "");
        o.put("cores", n.getCoresPerSocket());
        o.put("cpu_binding", 0);
        o.put("cpu_load", Math.round(n.getCpuLoad() * 100));
        o.put("extra", "");
        o.put("free_memory", n.getFreeMemoryMb());
        o.put("cpus", n.getCpus());
        o.put("last_busy", n.getLastBusyTime());
        o.put("features", String.join(",", n.getFeaturesList()));
        o.put("active_features", String.join(",", n.getFeaturesList()));
        o.put("gres", n.getGres());
        o.put("gres_drained", "N/A");
        o.put("gres_used", n.getGresUsed());
        o.put("mcs_label", "");
        o.put("name", n.getName());
        o.put("next_state_after_reboot", "invalid");
        o.put("address", n.getAddr());
        o.put("hostname", n.getHostname());
        o.put("state", n.getState().toLowerCase(Locale.ROOT));
        ArrayNode flags = o.putArray("state_flags");
        n.getFlagsList().forEach(flags::add);
        o.putArray("next_state_after_reboot_flags");
        o.put("operating_system", n.getOs());
        o.putNull("owner");
        ArrayNode partitions = o.putArray("partitions");
        n.getPartitionsList().forEach(partitions::add);
        o.put("port", n.getPort());
        o.put("real_memory", n.getRealMemoryMb());
        o.put("reason", n.getReason());
        o.put("reason_changed_at", n.getReasonTime());
        orNull(o, "reason_set_by_user", n.getReasonUser());
        o.put("slurmd_start_time", n.getSlurmdStartTime());
        o.put("sockets", n.getSockets());
        o.put("threads", n.getThreadsPerCore());
        o.put("temporary_disk", n.getTmpDiskMb());
        o.put("weight", n.getWeight());
        o.put("tres", n.getCfgTres());
        o.put("slurmd_version", n.getVersion());
        o.put("alloc_memory", n.getAllocMemoryMb());
        o.put("alloc_cpus", n.getAllocCpus());
        o.put("idle_cpus", Math.max(0, n.getCpus() - n.getAllocCpus()));
        orNull(o, "tres_used", n.getAllocTres());
        o.put("tres_weighted", 0.0);
        return o;
    }

    static ObjectNode partition(PartitionInfo p, Map<String, NodeInfo> nodes) {
        PartitionTotals totals = PartitionTotals.of(p, nodes);
        ObjectNode o = F.objectNode();
        ArrayNode flags = o.putArray("flags");
        if (p.getIsDefault()) {
            flags.add("default");
        }
        if (p.getHidden()) {
            flags.add("hidden");
        }
        if (p.getRootOnly()) {
            flags.add("root_only");
        }
        if (p.getExclusiveUser()) {
            flags.add("exclusive_user");
        }
        o.putArray("preemption_mode").add("disabled");
        o.put("allowed_allocation_nodes", "");
        o.put("allowed_accounts", p.getAllowAccounts());
        o.put("allowed_groups", p.getAllowGroups());
        o.put("allowed_qos", p.getAllowQos());
        o.put("alternative", "");
        o.put("billing_weights", p.getTresBillingWeights());
        positiveOrNull(o, "default_memory_per_cpu", p.getDefMemPerCpuMb());
        o.putNull("default_memory_per_node");
        minutesOrNull(o, "default_time_limit", p.getDefaultTimeMinutes());
        o.put("denied_accounts", p.getDenyAccounts());
        o.put("denied_qos", p.getDenyQos());
        o.put("preemption_grace_time", 0);
        o.put("maximum_cpus_per_node", -1);
        o.putNull("maximum_memory_per_cpu");
        positiveOrNull(o, "maximum_memory_per_node", p.getMaxMemPerNodeMb());
        o.put("maximum_nodes_per_job", unlimitedAsMinusOne(p.getMaxNodes()));
        minutesOrNull(o, "max_time_limit", p.getMaxTimeMinutes());
        // The key's spaces are slurmrestd 22.05's own.
        o.put("min nodes per job", p.getMinNodes());
        o.put("name", p.getName());
        o.put("nodes", p.getNodes());
        o.putNull("over_time_limit");
        o.put("priority_job_factor", p.getPriorityJobFactor());
        o.put("priority_tier", p.getPriorityTier());
        o.put("qos", p.getQos());
        o.put("state", WireStates.partitionState(p.getState()).map(Enum::name).orElse("UNKNOWN"));
        o.put("total_cpus", totals.cpus());
        o.put("total_nodes", totals.nodes());
        o.put("tres", totals.tres().format());
        return o;
    }

    static void orNull(ObjectNode o, String key, String value) {
        if (value.isEmpty()) {
            o.putNull(key);
        } else {
            o.put(key, value);
        }
    }

    private static void positiveOrNull(ObjectNode o, String key, long value) {
        if (value > 0) {
            o.put(key, value);
        } else {
            o.putNull(key);
        }
    }

    /** A time limit in minutes; unset (0 or NO_VAL) and INFINITE are {@code null}. */
    static void minutesOrNull(ObjectNode o, String key, int wire) {
        if (wire == 0 || wire == SlurmLimits.INFINITE32 || wire == SlurmLimits.NO_VAL32) {
            o.putNull(key);
        } else {
            o.put(key, Integer.toUnsignedLong(wire));
        }
    }

    private static int unlimitedAsMinusOne(int wire) {
        return wire == 0 || wire == SlurmLimits.INFINITE32 ? -1 : wire;
    }
}
