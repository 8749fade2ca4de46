package dev.sluice.restd.slurm;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.cli.command.scancel.Signals;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.GetJobsRequest;
import dev.sluice.protocol.v1.GetNodesRequest;
import dev.sluice.protocol.v1.GetNodesResponse;
import dev.sluice.protocol.v1.GetPartitionsRequest;
import dev.sluice.protocol.v1.GetPartitionsResponse;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.protocol.v1.PingRequest;
import dev.sluice.protocol.v1.PingResponse;
import dev.sluice.protocol.v1.SignalJobRequest;
import dev.sluice.protocol.v1.SignalJobResponse;
import dev.sluice.protocol.v1.SubmitBatchJobRequest;
import dev.sluice.protocol.v1.SubmitBatchJobResponse;
import dev.sluice.protocol.v1.UpdateNodeRequest;
import dev.sluice.restd.controller.ControllerSession;
import dev.sluice.restd.http.Envelope;
import dev.sluice.restd.http.Reply;
import dev.sluice.restd.http.RestErrors;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code /slurm/vX.Y.Z/} endpoints of one data parser version: each turns a request into the
 * controller messages the commands send, and the answer into that version's JSON.
 */
public final class SlurmApi {

    /** One REST request, already authenticated. */
    public record Call(
            String method,
            String path,
            Map<String, String> query,
            Optional<JsonNode> body,
            String user,
            String source,
            ControllerSession controller) {}

    private final ApiVersion version;
    private final String cluster;
    private final Clock clock;

    public SlurmApi(ApiVersion version, String cluster, Clock clock) {
        this.version = requireNonNull(version, "version is null");
        this.cluster = requireNonNull(cluster, "cluster is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** Empty when no endpoint of this version matches (the server answers 404 then). */
    public Optional<Reply> handle(Call call) {
        String rest = call.path().substring(version.slurmPrefix().length());
        if (rest.endsWith("/")) {
            rest = rest.substring(0, rest.length() - 1);
        }
        String[] parts = rest.split("/", -1);
        Envelope out = new Envelope(version.dataParser(), call.user(), call.source(), cluster);
        String op = call.method() + " " + parts[0] + (parts.length > 1 ? "/*" : "");
        if (parts.length > 2) {
            return Optional.empty();
        }
        String arg = parts.length > 1 ? parts[1] : "";
        try {
            return Optional.ofNullable(
                    switch (op) {
                        case "GET ping" -> ping(call, out);
                        case "GET diag" -> diag(call, out);
                        case "GET jobs" -> jobs(call, out, List.of());
                        case "POST job/*" -> arg.equals("submit") ? submit(call, out) : null;
                        case "GET job/*" -> jobs(call, out, List.of(jobId(arg)));
                        case "DELETE job/*" -> cancel(call, out, arg);
                        case "GET nodes" -> nodes(call, out, List.of());
                        case "GET node/*" -> nodes(call, out, List.of(arg));
                        case "POST node/*" -> updateNode(call, out, arg);
                        case "GET partitions" -> partitions(call, out, List.of());
                        case "GET partition/*" -> partitions(call, out, List.of(arg));
                        default -> null;
                    });
        } catch (ControllerException e) {
            // The controller's own line when it gave one; else which request failed.
            String why = e.userMessage().isEmpty() ? op.replace("/*", "/" + arg) + " failed" : e.userMessage();
            out.error(e.number(), e.getMessage(), why, "slurmctld");
            return Optional.of(requiredShape(op, out).reply(500));
        } catch (BadRequest e) {
            out.error(e.kind.number(), e.kind.text(), e.getMessage(), call.path());
            return Optional.of(requiredShape(op, out).reply(e.kind.httpStatus()));
        }
    }

    /** A failed answer still has the fields its schema requires, empty. */
    private static Envelope requiredShape(String op, Envelope out) {
        ObjectNode body = out.body();
        switch (op) {
            case "GET ping" -> body.putArray("pings");
            case "GET diag" -> body.putObject("statistics");
            case "GET jobs", "GET job/*" -> {
                body.putArray("jobs");
                body.set("last_backfill", Numbers.unset());
                body.set("last_update", Numbers.unset());
            }
            case "DELETE job/*" -> body.withArray("status");
            case "GET nodes", "GET node/*" -> {
                body.putArray("nodes");
                body.set("last_update", Numbers.unset());
            }
            case "GET partitions", "GET partition/*" -> {
                body.putArray("partitions");
                body.set("last_update", Numbers.unset());
            }
            default -> {}
        }
        return out;
    }

    private Reply ping(Call call, Envelope out) throws ControllerException {
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
    private Reply diag(Call call, Envelope out) throws ControllerException {
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

    private Reply jobs(Call call, Envelope out, List<Integer> ids) throws ControllerException {
        var answer = call.controller()
                .call(ClientRequest.newBuilder()
                        .setGetJobs(GetJobsRequest.newBuilder().addAllJobIds(ids)))
                .getGetJobs();
        ArrayNode jobs = out.body().putArray("jobs");
        answer.getJobsList().forEach(j -> jobs.add(JobJson.of(j)));
        out.body().set("last_backfill", Numbers.unset());
        out.body().set("last_update", Numbers.set(answer.getUpdateTime()));
        return out.reply(200);
    }

    private Reply submit(Call call, Envelope out) throws ControllerException, BadRequest {
        JsonNode body = call.body().orElseThrow(() -> new BadRequest(RestErrors.INVALID_JOBS_DESC, "empty body"));
        JobDescription.Parsed parsed;
        try {
            parsed = JobDescription.read(body);
        } catch (IllegalArgumentException e) {
            throw new BadRequest(RestErrors.INVALID_JOBS_DESC, e.getMessage());
        }
        parsed.ignored().forEach(f -> out.warning("field " + f + " is not supported yet and was ignored", "job"));
        SubmitBatchJobResponse answer = call.controller()
                .call(ClientRequest.newBuilder()
                        .setSubmitBatchJob(SubmitBatchJobRequest.newBuilder().setSpec(parsed.spec())))
                .getSubmitBatchJob();
        out.body().put("job_id", answer.getJobId());
        out.body().put("step_id", "batch");
        out.body().put("job_submit_user_msg", "");
        return out.reply(200);
    }

    /** DELETE job/{id}[?signal=S]: cancel it, or send it S, as scancel [-s S]. */
    private Reply cancel(Call call, Envelope out, String id) throws ControllerException, BadRequest {
        jobId(id);
        SignalJobRequest.Builder req = SignalJobRequest.newBuilder().addJobIds(id);
        String signal = call.query().getOrDefault("signal", "");
        if (signal.isEmpty()) {
            req.setCancel(true);
        } else {
            int n = Signals.parse(signal)
                    .orElseThrow(() -> new BadRequest(RestErrors.INVALID_QUERY, "unknown signal " + signal));
            req.setSignal(n).setCancel(n == 9);
        }
        SignalJobResponse answer = call.controller()
                .call(ClientRequest.newBuilder().setSignalJob(req))
                .getSignalJob();
        ArrayNode status = out.body().putArray("status");
        boolean failed = false;
        for (SignalJobResponse.Result r : answer.getResultsList()) {
            ObjectNode item = status.addObject();
            ObjectNode error = item.putObject("error");
            error.put(
                    "string",
                    r.getError().getMessage().isEmpty()
                            ? "No error"
                            : r.getError().getMessage());
            error.put("code", r.getError().getCode());
            error.put("message", r.getError().getUserMessage());
            item.put("step_id", "");
            item.set("job_id", Numbers.set(Long.parseLong(r.getJobId().split("_", 2)[0])));
            item.putObject("federation").put("sibling", "");
            if (r.getError().getCode() != 0) {
                failed = true;
                out.error(r.getError().getCode(), r.getError().getMessage(), "job " + r.getJobId(), "slurmctld");
            }
        }
        return out.reply(failed ? 500 : 200);
    }

    private Reply nodes(Call call, Envelope out, List<String> names) throws ControllerException {
        GetNodesResponse answer = call.controller()
                .call(ClientRequest.newBuilder()
                        .setGetNodes(GetNodesRequest.newBuilder().addAllNames(names)))
                .getGetNodes();
        ArrayNode nodes = out.body().putArray("nodes");
        answer.getNodesList().forEach(n -> nodes.add(NodeJson.of(n).put("cluster_name", cluster)));
        out.body().set("last_update", Numbers.set(answer.getUpdateTime()));
        return out.reply(200);
    }

    /** POST node/{name}: {@code update_node_msg}'s state and reason, as scontrol update NodeName=. */
    private Reply updateNode(Call call, Envelope out, String name) throws ControllerException, BadRequest {
        JsonNode body = call.body().orElseThrow(() -> new BadRequest(RestErrors.FAIL_PARSING, "empty body"));
        if (!body.isObject()) {
            throw new BadRequest(RestErrors.FAIL_PARSING, "node update must be a JSON object");
        }
        UpdateNodeRequest.Builder req = UpdateNodeRequest.newBuilder().setNodeNames(name);
        JsonNode state = body.get("state");
        if (state != null && !state.isNull()) {
            if (!state.isArray() || state.size() != 1 || !state.get(0).isTextual()) {
                throw new BadRequest(RestErrors.FAIL_PARSING, "state must be an array of one state name");
            }
            req.setState(state.get(0).asText());
        }
        JsonNode reason = body.get("reason");
        if (reason != null && !reason.isNull()) {
            if (!reason.isTextual()) {
                throw new BadRequest(RestErrors.FAIL_PARSING, "reason must be a string");
            }
            req.setReason(reason.asText());
        }
        body.fieldNames().forEachRemaining(f -> {
            if (!f.equals("state") && !f.equals("reason")) {
                out.warning("field " + f + " is not supported yet and was ignored", "node");
            }
        });
        call.controller().call(ClientRequest.newBuilder().setUpdateNode(req));
        return out.reply(200);
    }

    private Reply partitions(Call call, Envelope out, List<String> names) throws ControllerException {
        GetPartitionsResponse answer = call.controller()
                .call(ClientRequest.newBuilder()
                        .setGetPartitions(GetPartitionsRequest.newBuilder().addAllNames(names)))
                .getGetPartitions();
        ArrayNode parts = out.body().putArray("partitions");
        answer.getPartitionsList().forEach(p -> parts.add(PartitionJson.of(p, cluster)));
        out.body().set("last_update", Numbers.set(answer.getUpdateTime()));
        return out.reply(200);
    }

    private static int jobId(String id) throws BadRequest {
        try {
            int n = Integer.parseInt(id.split("_", 2)[0]);
            if (n <= 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new BadRequest(RestErrors.INVALID_QUERY, "invalid job id " + id);
        }
    }

    /** A request this version refuses before asking the controller. */
    private static final class BadRequest extends Exception {
        final RestErrors kind;

        BadRequest(RestErrors kind, String message) {
            super(message);
            this.kind = kind;
        }
    }
}
