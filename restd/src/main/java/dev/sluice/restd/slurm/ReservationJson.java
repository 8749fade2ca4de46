package dev.sluice.restd.slurm;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.common.hostlist.HostList;
import dev.sluice.protocol.v1.ReservationInfo;
import java.util.List;

/**
 * A reservation as {@code reservation_info} (v0.0.42 to v0.0.45): the values {@code scontrol show
 * reservation} prints, lists as comma-separated text, times as number objects. Fields of Slurm
 * features Sluice does not have (burst buffers, watts, groups, features) carry
 * their unset values.
 */
final class ReservationJson {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private ReservationJson() {}

    static ObjectNode of(ReservationInfo r) {
        ObjectNode o = F.objectNode();
        o.put("name", r.getName());
        o.put("accounts", String.join(",", r.getAccountsList()));
        o.put("burst_buffer", "");
        o.put("core_count", r.getCoreCount());
        o.set("end_time", Numbers.set(r.getEndTime()));
        o.put("features", "");
        ArrayNode flags = o.putArray("flags");
        r.getFlagsList().forEach(flags::add);
        o.put("groups", "");
        o.put("licenses", r.getLicenses());
        o.put("max_start_delay", 0);
        o.put("node_count", r.getNodesCount());
        o.put("node_list", r.getNodesCount() == 0 ? "" : HostList.compress(r.getNodesList()));
        o.put("partition", r.getPartition());
        o.putObject("purge_completed").set("time", Numbers.unset());
        o.set("start_time", Numbers.set(r.getStartTime()));
        o.put("users", users(r.getUsersList(), r.getUsersExcluded()));
        return o;
    }

    /** {@code Users=-alice,-bob}: everyone but those, as scontrol prints an excluding list. */
    private static String users(List<String> names, boolean excluded) {
        return String.join(",", excluded ? names.stream().map(n -> "-" + n).toList() : names);
    }
}
