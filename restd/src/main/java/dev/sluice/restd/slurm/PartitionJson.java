package dev.sluice.restd.slurm;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.protocol.WireStates;
import dev.sluice.protocol.v1.PartitionInfo;

/** A partition as v0.0.44's {@code partition_info}, grouped as data_parser groups it. */
final class PartitionJson {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private PartitionJson() {}

    static ObjectNode of(PartitionInfo p, String cluster) {
        ObjectNode o = F.objectNode();
        ObjectNode nodes = o.putObject("nodes");
        nodes.put("configured", p.getNodes());
        nodes.put("total", p.getTotalNodes());
        ObjectNode accounts = o.putObject("accounts");
        accounts.put("allowed", p.getAllowAccounts());
        accounts.put("deny", p.getDenyAccounts());
        o.putObject("groups").put("allowed", p.getAllowGroups());
        ObjectNode qos = o.putObject("qos");
        qos.put("allowed", p.getAllowQos());
        qos.put("deny", p.getDenyQos());
        qos.put("assigned", p.getQos());
        o.putObject("tres").put("billing_weights", p.getTresBillingWeights());
        o.put("cluster", cluster);
        o.putObject("cpus").put("total", p.getTotalCpus());
        ObjectNode defaults = o.putObject("defaults");
        defaults.set("partition_memory_per_cpu", Numbers.setIfPositive(p.getDefMemPerCpuMb()));
        defaults.set("time", Numbers.limit32(p.getDefaultTimeMinutes()));
        ObjectNode max = o.putObject("maximums");
        max.set("partition_memory_per_node", Numbers.setIfPositive(p.getMaxMemPerNodeMb()));
        max.set("nodes", Numbers.limit32(p.getMaxNodes()));
        max.set("time", Numbers.limit32(p.getMaxTimeMinutes()));
        o.putObject("minimums").put("nodes", p.getMinNodes());
        o.put("name", p.getName());
        ObjectNode priority = o.putObject("priority");
        priority.put("job_factor", p.getPriorityJobFactor());
        priority.put("tier", p.getPriorityTier());
        o.putObject("partition")
                .putArray("state")
                .add(WireStates.partitionState(p.getState()).map(Enum::name).orElse("UNKNOWN"));
        return o;
    }
}
