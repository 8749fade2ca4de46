package dev.sluice.restd.slurm;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.protocol.v1.NodeInfo;
import java.util.Set;

/** A node as v0.0.44's {@code node}: base state first, then its flags, as data_parser lists them. */
final class NodeJson {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    /**
     * The flags v0.0.44's state enum knows; others are mapped (DYNAMIC is DYNAMIC_NORM there, MAINT
     * MAINTENANCE, REBOOT_CANCEL REBOOT_CANCELED) or dropped.
     */
    private static final Set<String> KNOWN = Set.of(
            "INVALID",
            "UNKNOWN",
            "DOWN",
            "IDLE",
            "ALLOCATED",
            "ERROR",
            "MIXED",
            "FUTURE",
            "EXTERNAL",
            "RESERVED",
            "UNDRAIN",
            "CLOUD",
            "RESUME",
            "DRAIN",
            "COMPLETING",
            "NOT_RESPONDING",
            "POWERED_DOWN",
            "FAIL",
            "POWERING_UP",
            "MAINTENANCE",
            "REBOOT_REQUESTED",
            "REBOOT_CANCELED",
            "POWERING_DOWN",
            "DYNAMIC_FUTURE",
            "REBOOT_ISSUED",
            "PLANNED",
            "INVALID_REG",
            "POWER_DOWN",
            "POWER_UP",
            "POWER_DRAIN",
            "DYNAMIC_NORM",
            "BLOCKED");

    private NodeJson() {}

    static ObjectNode of(NodeInfo n) {
        ObjectNode o = F.objectNode();
        o.put("architecture", n.getArch());
        o.put("boards", n.getBoards());
        o.set("boot_time", Numbers.set(n.getBootTime()));
        o.put("cores", n.getCoresPerSocket());
        o.put("cpu_load", Math.round(n.getCpuLoad() * 100));
        o.set("free_mem", Numbers.set(n.getFreeMemoryMb()));
        o.put("cpus", n.getCpus());
        o.put("effective_cpus", n.getCpus());
        csv(o.putArray("features"), n.getFeaturesList());
        csv(o.putArray("active_features"), n.getFeaturesList());
        o.put("gres", n.getGres());
        o.put("gres_used", n.getGresUsed());
        o.set("last_busy", Numbers.set(n.getLastBusyTime()));
        o.put("name", n.getName());
        o.put("address", n.getAddr());
        o.put("hostname", n.getHostname());
        o.set("state", states(n));
        o.put("operating_system", n.getOs());
        csv(o.putArray("partitions"), n.getPartitionsList());
        o.put("port", n.getPort());
        o.put("real_memory", n.getRealMemoryMb());
        o.put("reason", n.getReason());
        o.set("reason_changed_at", Numbers.set(n.getReasonTime()));
        o.put("reason_set_by_user", n.getReasonUser());
        o.put("alloc_memory", n.getAllocMemoryMb());
        o.put("alloc_cpus", n.getAllocCpus());
        o.put("alloc_idle_cpus", Math.max(0, n.getCpus() - n.getAllocCpus()));
        o.set("slurmd_start_time", Numbers.set(n.getSlurmdStartTime()));
        o.put("sockets", n.getSockets());
        o.put("threads", n.getThreadsPerCore());
        o.put("temporary_disk", n.getTmpDiskMb());
        o.put("weight", n.getWeight());
        o.put("tres", n.getCfgTres());
        o.put("tres_used", n.getAllocTres());
        o.put("version", n.getVersion());
        return o;
    }

    static ArrayNode states(NodeInfo n) {
        ArrayNode a = F.arrayNode();
        a.add(KNOWN.contains(n.getState()) ? n.getState() : "UNKNOWN");
        for (String flag : n.getFlagsList()) {
            String name = switch (flag) {
                case "DYNAMIC" -> "DYNAMIC_NORM";
                case "MAINT" -> "MAINTENANCE";
                case "REBOOT_CANCEL" -> "REBOOT_CANCELED";
                default -> flag;
            };
            if (KNOWN.contains(name)) {
                a.add(name);
            }
        }
        return a;
    }

    private static void csv(ArrayNode into, Iterable<String> items) {
        items.forEach(into::add);
    }
}
