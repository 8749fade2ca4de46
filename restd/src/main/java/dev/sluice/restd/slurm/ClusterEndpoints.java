package dev.sluice.restd.slurm;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.protocol.v1.*;
import dev.sluice.restd.http.Envelope;
import dev.sluice.restd.http.Reply;
import dev.sluice.restd.slurm.SlurmApi.Call;
import java.time.Clock;
import java.util.List;

/** ping, diag, nodes, partitions, licenses and reconfigure: as scontrol and sinfo ask the controller. */
final class ClusterEndpoints {
    private ClusterEndpoints() {}

    static Reply ping(Call call, Envelope out, ApiVersion version) throws ControllerException {
        long started = System.nanoTime();
        PingResponse ping = call.controller()
                .call(ClientRequest.newBuilder().setPing(PingRequest.getDefaultInstance()))
                .getPing();
        long micros = (System.nanoTime() - started) / 1000;
        ArrayNode pings = out.body().putArray("pings");
        ObjectNode one = pings.addObject().put("hostname", ping.getController());
        if (!version.pingHasStatus()) {
            one.put("pinged", "UP");
        }
        one.put("responding", true).put("latency", micros);
        if (version.pingHasStatus()) {
            one.put("status", "UP");
        } else {
            one.put("mode", "primary");
        }
        one.put("primary", true);
        return out.reply(200);
    }

    /** What the controller's answers tell honestly: when it started, and how many jobs wait and run. */
    static Reply diag(Call call, Envelope out, Clock clock) throws ControllerException {
        PingResponse ping = call.controller()
                .call(ClientRequest.newBuilder().setPing(PingRequest.getDefaultInstance()))
                .getPing();
        List<JobInfo> jobs = call.controller()
                .call(ClientRequest.newBuilder()
                        .setGetJobs(GetJobsRequest.newBuilder().setActiveOnly(true)))
                .getGetJobs()
                .getJobsList();
        ObjectNode stats = out.body().putObject("statistics");
        stats.set("req_time", Numbers.set(clock.instant().getEpochSecond()));
        stats.set("req_time_start", Numbers.set(ping.getStartTime()));
        stats.put(
                "jobs_pending",
                jobs.stream().filter(j -> j.getState() == JobState.PENDING).count());
        stats.put(
                "jobs_running",
                jobs.stream().filter(j -> j.getState() == JobState.RUNNING).count());
        return out.reply(200);
    }

    static Reply nodes(Call call, Envelope out, List<String> names, String cluster) throws ControllerException {
        GetNodesResponse answer = call.controller()
                .call(ClientRequest.newBuilder()
                        .setGetNodes(GetNodesRequest.newBuilder().addAllNames(names)))
                .getGetNodes();
        ArrayNode nodes = out.body().putArray("nodes");
        answer.getNodesList().forEach(n -> nodes.add(NodeJson.of(n).put("cluster_name", cluster)));
        out.body().set("last_update", Numbers.set(answer.getUpdateTime()));
        return out.reply(200);
    }

    static Reply partitions(Call call, Envelope out, List<String> names, String cluster) throws ControllerException {
        GetPartitionsResponse answer = call.controller()
                .call(ClientRequest.newBuilder()
                        .setGetPartitions(GetPartitionsRequest.newBuilder().addAllNames(names)))
                .getGetPartitions();
        ArrayNode parts = out.body().putArray("partitions");
        answer.getPartitionsList().forEach(p -> parts.add(PartitionJson.of(p, cluster)));
        out.body().set("last_update", Numbers.set(answer.getUpdateTime()));
        return out.reply(200);
    }

    /** DELETE node/{name}: a dynamic node removed, as scontrol delete NodeName=. */
    static Reply deleteNode(Call call, Envelope out, String name) throws ControllerException {
        call.controller()
                .call(ClientRequest.newBuilder()
                        .setDeleteNode(DeleteNodeRequest.newBuilder().setNodeNames(name)));
        return out.reply(200);
    }

    /**
     * GET licenses: slurm.conf's Licenses, what running jobs hold and reservations hold now, as
     * scontrol show licenses.
     */
    static Reply licenses(Call call, Envelope out, Clock clock) throws ControllerException {
        GetLicensesResponse answer = call.controller()
                .call(ClientRequest.newBuilder().setGetLicenses(GetLicensesRequest.getDefaultInstance()))
                .getGetLicenses();
        ArrayNode licenses = out.body().putArray("licenses");
        for (LicenseInfo l : answer.getLicensesList()) {
            licenses.addObject()
                    .put("LicenseName", l.getName())
                    .put("Total", l.getTotal())
                    .put("Used", l.getUsed())
                    .put("Free", Math.max(0, l.getTotal() - l.getUsed()))
                    .put("Remote", false)
                    .put("Reserved", l.getReserved());
        }
        out.body().set("last_update", Numbers.set(clock.instant().getEpochSecond()));
        return out.reply(200);
    }

    /**
     * GET reservations, GET reservation/{name}: as scontrol show reservation [NAME]. A name the
     * controller does not hold is Slurm's {@code Requested reservation is invalid}, answered
     * with 500 as slurmrestd answers an unknown partition.
     *
     * @param name null for every reservation
     */
    static Reply reservations(Call call, Envelope out, String name) throws ControllerException {
        GetReservationsResponse answer = call.controller()
                .call(ClientRequest.newBuilder().setGetReservations(GetReservationsRequest.getDefaultInstance()))
                .getGetReservations();
        ArrayNode list = out.body().putArray("reservations");
        answer.getReservationsList().stream()
                .filter(r -> name == null || r.getName().equals(name))
                .forEach(r -> list.add(ReservationJson.of(r)));
        out.body().set("last_update", Numbers.set(answer.getNow()));
        if (name != null && list.isEmpty()) {
            ErrorCode invalid = ErrorCode.RESERVATION_INVALID;
            out.error(invalid.number(), invalid.text(), "Unable to query reservation " + name, "slurmctld");
            return out.reply(500);
        }
        return out.reply(200);
    }

    /** GET reconfigure: the controller rereads its files, as scontrol reconfigure (operators only). */
    static Reply reconfigure(Call call, Envelope out) throws ControllerException {
        call.controller().call(ClientRequest.newBuilder().setReconfigure(ReconfigureRequest.getDefaultInstance()));
        return out.reply(200);
    }
}
