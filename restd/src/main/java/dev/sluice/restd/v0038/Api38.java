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
import dev.sluice.restd.http.Endpoints;
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

    /** One request as its handler sees it. */
    private record Request(Api38 api, ControllerSession controller, Optional<JsonNode> body, Supplier<String> client) {}

    private static final Endpoints<Request> ENDPOINTS = Endpoints.<Request>builder()
            .get("ping/", "ping the controller", "v0.0.38_pings", (q, arg) -> Cluster38.ping(q.controller))
            .get(
                    "diag/",
                    "the controller's statistics",
                    "v0.0.38_diag",
                    (q, arg) -> Diag38.diag(q.controller, q.api.clock))
            .get("jobs/", "every job", "v0.0.38_jobs_response", (q, arg) -> q.api.jobs(q.controller, null))
            .get("job/{job_id}", "one job", "v0.0.38_jobs_response", (q, arg) -> q.api.jobs(q.controller, arg))
            .delete("job/{job_id}", "cancel a job", "v0.0.38_response", (q, arg) -> cancel(q.controller, arg))
            .post(
                    "job/{job_id}",
                    "change a job",
                    "v0.0.38_response",
                    "v0.0.38_job_properties",
                    (q, arg) -> Update38.update(q.controller, arg, q.body, q.client))
            .post(
                    "job/submit",
                    "submit a batch job",
                    "v0.0.38_job_submission_response",
                    "v0.0.38_job_submission",
                    (q, arg) -> submit(q.controller, q.body))
            .get("nodes/", "every node", "v0.0.38_nodes_response", (q, arg) -> Cluster38.nodes(q.controller, null))
            .get(
                    "node/{node_name}",
                    "one node",
                    "v0.0.38_nodes_response",
                    (q, arg) -> Cluster38.nodes(q.controller, arg))
            .get(
                    "partitions/",
                    "every partition",
                    "v0.0.38_partitions_response",
                    (q, arg) -> Cluster38.partitions(q.controller, null))
            .get(
                    "partition/{partition_name}",
                    "one partition",
                    "v0.0.38_partitions_response",
                    (q, arg) -> Cluster38.partitions(q.controller, arg))
            .get(
                    "reservations/",
                    "every advance reservation",
                    "v0.0.38_reservations_response",
                    (q, arg) -> Reservations38.reservations(q.controller, null))
            .get(
                    "reservation/{reservation_name}",
                    "one advance reservation",
                    "v0.0.38_reservations_response",
                    (q, arg) -> Reservations38.reservations(q.controller, arg))
            .build();

    /** What is served, for {@code /openapi/v3}. */
    public static final List<Route> ROUTES = ENDPOINTS.routes();

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
        Optional<Endpoints.Bound<Request>> match = ENDPOINTS.match(method, path.substring(PREFIX.length()));
        if (match.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(match.get()
                    .handler()
                    .serve(
                            new Request(this, controller, body, client),
                            match.get().arg()));
        } catch (ControllerException e) {
            return Optional.of(
                    new Envelope38().errorCode(e.number(), e.getMessage()).reply(500));
        } catch (Exception e) {
            throw Endpoints.unexpected(match.get(), e);
        }
    }

    /** Whether some method is served at {@code path} (one this tree has): 22.05 answers 405, not 404. */
    public static boolean servesPath(String path) {
        String rest = path.substring(PREFIX.length());
        return java.util.stream.Stream.of("GET", "POST", "DELETE")
                .anyMatch(m -> ENDPOINTS.match(m, rest).isPresent());
    }

    /**
     * The answer to a request whose token was refused, as slurmrestd 22.05 gives it once
     * slurmctld has refused the token (compat 276); empty when {@code path} is no endpoint.
     * Nothing is asked of the controller.
     */
    public Optional<Reply> refused(String method, String path, Optional<JsonNode> body, Supplier<String> client) {
        if (!path.startsWith(PREFIX)) {
            return Optional.empty();
        }
        Optional<Endpoints.Bound<Request>> match = ENDPOINTS.match(method, path.substring(PREFIX.length()));
        if (match.isEmpty()) {
            return Optional.empty();
        }
        Optional<Reply> worded = Refused38.answer(match.get().key(), match.get().arg());
        // The others read their body first, and word the closed connection as any failure.
        return worded.isPresent() ? worded : handle(method, path, body, client, Refused38.CLOSED);
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
