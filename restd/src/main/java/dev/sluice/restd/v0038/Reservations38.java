package dev.sluice.restd.v0038;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.hostlist.HostList;
import dev.sluice.common.slurm.SlurmLimits;
import dev.sluice.common.tres.Tres;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.GetReservationsRequest;
import dev.sluice.protocol.v1.ReservationInfo;
import dev.sluice.restd.controller.ControllerSession;
import dev.sluice.restd.http.Reply;
import java.util.List;

/**
 * reservations and reservation/{name} in v0.0.38's shape (compat 155): flat text lists, times
 * as plain numbers, {@code tres} as scontrol prints it (CPUs only, as 22.05 counts them), and
 * the unset values of what Sluice has no feature for (burst buffers, watts, groups, licenses).
 */
final class Reservations38 {
    private Reservations38() {}

    /** @param name null for every reservation */
    static Reply reservations(ControllerSession controller, String name) throws ControllerException {
        List<ReservationInfo> all = controller
                .call(ClientRequest.newBuilder().setGetReservations(GetReservationsRequest.getDefaultInstance()))
                .getGetReservations()
                .getReservationsList();
        Envelope38 out = new Envelope38();
        ArrayNode list = out.body().putArray("reservations");
        all.stream().filter(r -> name == null || r.getName().equals(name)).forEach(r -> list.add(of(r)));
        if (name != null && list.isEmpty()) {
            // As the partition and node listings: the controller's error, with errno.
            ErrorCode invalid = ErrorCode.RESERVATION_INVALID;
            return out.errno(invalid.number(), invalid.text()).reply(500);
        }
        return out.reply(200);
    }

    static ObjectNode of(ReservationInfo r) {
        ObjectNode o = Envelope38.F.objectNode();
        o.put("accounts", String.join(",", r.getAccountsList()));
        o.put("burst_buffer", "");
        o.put("core_count", r.getCoreCount());
        o.put("core_spec_cnt", 0);
        o.put("end_time", r.getEndTime());
        o.put("features", "");
        ArrayNode flags = o.putArray("flags");
        r.getFlagsList().forEach(flags::add);
        o.put("groups", "");
        o.put("licenses", "");
        o.put("max_start_delay", 0);
        o.put("name", r.getName());
        o.put("node_count", r.getNodesCount());
        o.put("node_list", r.getNodesCount() == 0 ? "" : HostList.compress(r.getNodesList()));
        o.put("partition", r.getPartition());
        o.put("start_time", r.getStartTime());
        o.put(
                "tres",
                Tres.of(java.util.Map.of(
                                "cpu", (long) (r.getCoresOnNodes() > 0 ? r.getCoresOnNodes() : r.getCoreCount())))
                        .format());
        o.put("users", users(r));
        // Slurm's NO_VAL: no power budget (22.05 prints the number, not null, here).
        o.put("watts", SlurmLimits.NO_VAL);
        return o;
    }

    /** {@code -alice,-bob}: everyone but those, as scontrol prints an excluding list. */
    private static String users(ReservationInfo r) {
        List<String> names = r.getUsersList();
        return String.join(
                ",", r.getUsersExcluded() ? names.stream().map(n -> "-" + n).toList() : names);
    }
}
