package dev.sluice.cli.command.sinfo;

import dev.sluice.cli.json.JsonWriter;
import dev.sluice.cli.json.SlurmEnvelope;
import dev.sluice.cli.view.NodeStates;
import dev.sluice.protocol.v1.NodeInfo;
import dev.sluice.protocol.v1.PartitionInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code sinfo --json}: Slurm 22.05's data_parser v0.0.38 node records, members in the order
 * 22.05.8 prints them (observed: {@code sinfo --json} on the real-slurm cluster, 2026-11-29).
 * 22.05 prints nodes only, no partitions. Members for things Sluice does not have (burst
 * buffers, MCS labels, node owners, ...) carry the value 22.05 prints when they are unset.
 * {@code cpu_load} is the load average times 100, as Slurm keeps it. Pure.
 */
final class NodeJson {
    private NodeJson() {}

    static String document(List<NodeInfo> nodes, List<PartitionInfo> partitions) {
        JsonWriter w = SlurmEnvelope.open();
        w.name("nodes").beginArray();
        for (NodeInfo n : nodes) {
            node(w, n, partitions);
        }
        w.endArray();
        return w.endObject().toString();
    }

    private static void node(JsonWriter w, NodeInfo n, List<PartitionInfo> partitions) {
        long cpus = Integer.toUnsignedLong(n.getCpus());
        long alloc = Math.min(cpus, Integer.toUnsignedLong(n.getAllocCpus()));
        w.beginObject();
        w.field("architecture", n.getArch());
        w.field("burstbuffer_network_address", "");
        w.field("boards", Math.max(1, Integer.toUnsignedLong(n.getBoards())));
        w.field("boot_time", n.getBootTime());
        w.field("comment", "");
        w.field("cores", Integer.toUnsignedLong(n.getCoresPerSocket()));
        w.field("cpu_binding", 0);
        w.field("cpu_load", Math.round(n.getCpuLoad() * 100));
        w.field("extra", "");
        w.field("free_memory", n.getFreeMemoryMb());
        w.field("cpus", cpus);
        w.field("last_busy", n.getLastBusyTime());
        String features = String.join(",", n.getFeaturesList());
        w.field("features", features);
        w.field("active_features", features);
        w.field("gres", n.getGres());
        w.field("gres_drained", "N/A");
        w.field("gres_used", n.getGresUsed());
        w.field("mcs_label", "");
        w.field("name", n.getName());
        w.field("next_state_after_reboot", "invalid");
        w.field("address", n.getAddr().isEmpty() ? n.getName() : n.getAddr());
        w.field("hostname", n.getHostname().isEmpty() ? n.getName() : n.getHostname());
        w.field("state", NodeStates.base(n).toLowerCase(Locale.ROOT));
        w.field(
                "state_flags",
                n.getFlagsList().stream()
                        .map(f -> f.toUpperCase(Locale.ROOT))
                        .distinct()
                        .toList());
        w.field("next_state_after_reboot_flags", List.of());
        w.field("operating_system", n.getOs());
        w.nullField("owner");
        w.field("partitions", partitionsOf(n, partitions));
        w.field("port", Integer.toUnsignedLong(n.getPort()));
        w.field("real_memory", n.getRealMemoryMb());
        w.field("reason", n.getReason());
        w.field("reason_changed_at", n.getReasonTime());
        if (n.getReasonUser().isEmpty()) {
            w.nullField("reason_set_by_user");
        } else {
            w.field("reason_set_by_user", n.getReasonUser());
        }
        w.field("slurmd_start_time", n.getSlurmdStartTime());
        w.field("sockets", Integer.toUnsignedLong(n.getSockets()));
        w.field("threads", Integer.toUnsignedLong(n.getThreadsPerCore()));
        w.field("temporary_disk", n.getTmpDiskMb());
        w.field("weight", Integer.toUnsignedLong(n.getWeight()));
        w.field("tres", n.getCfgTres());
        w.field("slurmd_version", n.getVersion());
        w.field("alloc_memory", n.getAllocMemoryMb());
        w.field("alloc_cpus", alloc);
        w.field("idle_cpus", cpus - alloc);
        if (n.getAllocTres().isEmpty()) {
            w.nullField("tres_used");
        } else {
            w.field("tres_used", n.getAllocTres());
        }
        // The billing weight of what is allocated; without TRESBillingWeights, the CPUs.
        w.name("tres_weighted").value((double) alloc);
        w.endObject();
    }

    /** The node's partitions as the controller lists them, else the partitions naming it. */
    private static List<String> partitionsOf(NodeInfo n, List<PartitionInfo> partitions) {
        if (n.getPartitionsCount() > 0) {
            return n.getPartitionsList();
        }
        List<String> names = new ArrayList<>();
        for (PartitionInfo p : partitions) {
            if (p.getNodeNamesList().contains(n.getName())) {
                names.add(p.getName());
            }
        }
        return names;
    }
}
