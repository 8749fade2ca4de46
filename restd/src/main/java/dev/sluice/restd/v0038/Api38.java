package dev.sluice.restd.v0038;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.sluice.cli.UserDirectory;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.cli.json.JobRecord38;
import dev.sluice.cli.json.JsonWriter;
import dev.sluice.cli.view.JobView;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.protocol.v1.*;
import dev.sluice.restd.controller.ControllerSession;
import dev.sluice.restd.http.Reply;
import dev.sluice.restd.http.Route;
import dev.sluice.restd.slurm.JobDescription;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/** The {@code /slurm/v0.0.38/} endpoints slurmrestd 22.05 serves, for the requests the commands send. */
public final class Api38 {
    public static final String PREFIX = "/slurm/v0.0.38/";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What is served, for the dispatch and for {@code /openapi/v3}. */
    public static final List<Route> ROUTES = List.of(
            Route.get("ping/", "ping the controller", "v0.0.38_pings"),
            Route.get("diag/", "the controller's statistics", "v0.0.38_diag"),
            Route.get("jobs/", "every job", "v0.0.38_jobs_response"),
            Route.get("job/{job_id}", "one job", "v0.0.38_jobs_response"),
            Route.delete("job/{job_id}", "cancel a job", "v0.0.38_response"),
            Route.post("job/{job_id}", "change a job", "v0.0.38_response", "v0.0.38_job_properties"),
            Route.post("job/submit", "submit a batch job", "v0.0.38_job_submission_response", "v0.0.38_job_submission"),
            Route.get("nodes/", "every node", "v0.0.38_nodes_response"),
            Route.get("node/{node_name}", "one node", "v0.0.38_nodes_response"),
            Route.get("partitions/", "every partition", "v0.0.38_partitions_response"),
            Route.get("partition/{partition_name}", "one partition", "v0.0.38_partitions_response"),
            Route.get("reservations/", "every advance reservation", "v0.0.38_reservations_response"),
            Route.get("reservation/{reservation_name}", "one advance reservation", "v0.0.38_reservations_response"));

    private final String cluster;
    private final Clock clock;
    private final UserDirectory users;

    public Api38(String cluster, Clock clock, UserDirectory users) {
        this.cluster = requireNonNull(cluster, "cluster is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.users = requireNonNull(users, "users is null");
    }

    /**
     * Empty when {@code path} is no endpoint of v0.0.38.
     *
     * @param client the client as slurmrestd names it in some errors, {@code [HOST]:PORT}
     */
    public Optional<Reply> handle(
            String method,
            String path,
            Optional<JsonNode> body,
            Supplier<String> client,
            ControllerSession controller) {
        if (!path.startsWith(PREFIX)) {
            return Optional.empty();
        }
        Optional<Route.Match> match = Route.match(method, path.substring(PREFIX.length()), ROUTES);
        if (match.isEmpty()) {
            return Optional.empty();
        }
        String arg = match.get().arg();
        try {
            return Optional.of(
                    switch (match.get().key()) {
                        case "GET ping" -> Cluster38.ping(controller);
                        case "GET diag" -> Diag38.diag(controller, clock);
                        case "POST job/*" -> Update38.update(controller, arg, body, client);
                        case "GET jobs" -> jobs(controller, null);
                        case "GET job/*" -> jobs(controller, arg);
                        case "DELETE job/*" -> cancel(controller, arg);
                        case "POST job/submit" -> submit(controller, body);
                        case "GET nodes" -> Cluster38.nodes(controller, null);
                        case "GET node/*" -> Cluster38.nodes(controller, arg);
                        case "GET partitions" -> Cluster38.partitions(controller, null);
                        case "GET partition/*" -> Cluster38.partitions(controller, arg);
                        case "GET reservations" -> Reservations38.reservations(controller, null);
                        case "GET reservation/*" -> Reservations38.reservations(controller, arg);
                        default ->
                            throw new IllegalStateException(
                                    "route " + match.get().key() + " has no handler");
                    });
        } catch (ControllerException e) {
            return Optional.of(
                    new Envelope38().errorCode(e.number(), e.getMessage()).reply(500));
        }
    }

    private Reply jobs(ControllerSession controller, String id) throws ControllerException {
        Envelope38 out = new Envelope38();
        ArrayNode list = out.body().putArray("jobs");
        GetJobsRequest.Builder ask = GetJobsRequest.newBuilder();
        if (id != null) {
            int number;
            try {
                number = Integer.parseInt(id);
            } catch (NumberFormatException e) {
                number = -1;
            }
            if (number <= 0) {
                return unknownJob(out, id);
            }
            ask.addFamilyIds(number);
        }
        List<JobInfo> jobs;
        try {
            jobs = controller
                    .call(ClientRequest.newBuilder().setGetJobs(ask))
                    .getGetJobs()
                    .getJobsList();
        } catch (ControllerException e) {
            if (id != null && e.number() == ErrorCode.INVALID_JOB_ID.number()) {
                return unknownJob(out, id);
            }
            throw e;
        }
        if (id != null) {
            jobs = jobs.stream()
                    .filter(j -> Integer.toString(j.getJobId()).equals(id)
                            || Integer.toString(j.getArrayJobId()).equals(id))
                    .toList();
            if (jobs.isEmpty()) {
                return unknownJob(out, id);
            }
        }
        Map<String, NodeInfo> nodes = Cluster38.nodeMap(controller, List.of());
        for (JobInfo j : jobs) {
            // squeue --json's writer, read back into the answer's tree: one owner of the record.
            JsonWriter record = new JsonWriter();
            JobRecord38.write(record, new JobView(j, clock.instant(), clock, users), cluster, nodes);
            try {
                list.add(JSON.readTree(record.toString()));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("job record is not JSON: " + e.getMessage(), e);
            }
        }
        return out.reply(200);
    }

    private static Reply unknownJob(Envelope38 out, String id) {
        return out.described(
                        "Unable to find JobId=" + id,
                        ErrorCode.INVALID_JOB_ID.number(),
                        ErrorCode.INVALID_JOB_ID.text(),
                        "slurm_load_job")
                .reply(500);
    }

    private static Reply cancel(ControllerSession controller, String id) throws ControllerException {
        Envelope38 out = new Envelope38();
        SignalJobResponse answer = controller
                .call(ClientRequest.newBuilder()
                        .setSignalJob(
                                SignalJobRequest.newBuilder().addJobIds(id).setCancel(true)))
                .getSignalJob();
        boolean failed = false;
        for (SignalJobResponse.Result r : answer.getResultsList()) {
            if (r.getError().getCode() != 0) {
                out.errorCode(r.getError().getCode(), r.getError().getMessage());
                failed = true;
            }
        }
        return out.reply(failed ? 500 : 200);
    }

    private static Reply submit(ControllerSession controller, Optional<JsonNode> body) throws ControllerException {
        Envelope38 out = new Envelope38();
        JobDescription.Parsed parsed;
        try {
            parsed = JobDescription.read(body.orElse(null));
        } catch (IllegalArgumentException e) {
            ErrorCode code = e.getMessage().equals(ErrorCode.JOB_SCRIPT_MISSING.text())
                    ? ErrorCode.JOB_SCRIPT_MISSING
                    : ErrorCode.UNEXPECTED;
            return out.errorCode(code.number(), e.getMessage()).reply(500);
        }
        SubmitBatchJobResponse answer = controller
                .call(ClientRequest.newBuilder()
                        .setSubmitBatchJob(SubmitBatchJobRequest.newBuilder().setSpec(parsed.spec())))
                .getSubmitBatchJob();
        out.body().put("job_id", answer.getJobId());
        out.body().put("step_id", "BATCH");
        out.body().put("job_submit_user_msg", "");
        return out.reply(200);
    }
}
