package dev.sluice.restd.slurm;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.restd.controller.ControllerSession;
import dev.sluice.restd.http.Endpoints;
import dev.sluice.restd.http.Envelope;
import dev.sluice.restd.http.Reply;
import dev.sluice.restd.http.Route;
import java.time.Clock;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;

/**
 * The {@code /slurm/vX.Y.Z/} endpoints of one data parser version: each turns a request into the
 * controller messages the commands send, and the answer into that version's JSON.
 */
public final class SlurmApi {

    /**
     * One REST request, already authenticated; {@code credential} is the token its session
     * presents (requests presenting the same one may share a controller answer).
     */
    public record Call(
            String method,
            String path,
            Map<String, String> query,
            Optional<JsonNode> body,
            String user,
            String source,
            String credential,
            ControllerSession controller) {}

    /** One request as its handler sees it: the call, the answer being built, this tree. */
    private record Request(SlurmApi api, Call call, Envelope out) {}

    private static final Endpoints<Request> ENDPOINTS = Endpoints.<Request>builder()
            .get(
                    "ping/",
                    "ping the controller, as scontrol ping",
                    "openapi_ping_array_resp",
                    (q, arg) -> ClusterEndpoints.ping(q.call, q.out, q.api.version))
            .get(
                    "diag/",
                    "the controller's statistics, as sdiag",
                    "openapi_diag_resp",
                    (q, arg) -> ClusterEndpoints.diag(q.call, q.out, q.api.clock))
            .get(
                    "jobs/",
                    "every job, as squeue",
                    "openapi_job_info_resp",
                    (q, arg) -> JobEndpoints.all(q.call, q.out, q.api.listings))
            .get(
                    "jobs/state/",
                    "each job's id and state, as squeue -o %i,%T",
                    "openapi_job_info_resp",
                    (q, arg) -> JobDetails.states(q.call, q.out))
            .post(
                    "job/submit",
                    "submit a batch job, as sbatch",
                    "openapi_job_submit_response",
                    "job_submit_req",
                    (q, arg) -> JobEndpoints.submit(q.call, q.out))
            .post(
                    "job/allocate",
                    "an allocation without a script, as salloc",
                    "openapi_job_alloc_resp",
                    "job_alloc_req",
                    (q, arg) -> JobActions.allocate(q.call, q.out))
            .get(
                    "job/{job_id}",
                    "one job, as scontrol show job",
                    "openapi_job_info_resp",
                    (q, arg) -> JobEndpoints.jobs(q.call, q.out, List.of(JobEndpoints.jobId(arg))))
            .post(
                    "job/{job_id}",
                    "change, hold or release a job, as scontrol update",
                    "openapi_job_post_response",
                    "job_desc_msg",
                    (q, arg) -> JobEndpoints.update(q.call, q.out, arg))
            .delete(
                    "jobs/",
                    "cancel or signal the jobs a kill_jobs_msg names or filters, as scancel",
                    "openapi_kill_jobs_resp",
                    "kill_jobs_msg",
                    (q, arg) -> KillJobs.kill(q.call, q.out))
            .delete(
                    "job/{job_id}",
                    "cancel or signal a job, as scancel",
                    "openapi_kill_job_resp",
                    (q, arg) -> JobEndpoints.cancel(q.call, q.out, arg))
            .get(
                    "job/{job_id}/requeue",
                    "requeue a job, as scontrol requeue[hold]",
                    "openapi_job_requeue_resp",
                    (q, arg) -> JobActions.requeueOne(q.call, q.out, arg))
            .post(
                    "jobs/requeue",
                    "requeue jobs, as scontrol requeue[hold]",
                    "openapi_jobs_requeue_resp",
                    "openapi_jobs_requeue_query",
                    (q, arg) -> JobActions.requeueMany(q.call, q.out))
            .get(
                    "resources/{job_id}",
                    "the resources a job holds on each node, as scontrol show job -d",
                    "openapi_resource_layout_resp",
                    (q, arg) -> JobDetails.resources(q.call, q.out, arg))
            .get(
                    "nodes/",
                    "every node, as scontrol show node",
                    "openapi_nodes_resp",
                    (q, arg) -> ClusterEndpoints.nodes(q.call, q.out, List.of(), q.api.cluster))
            .post(
                    "nodes/",
                    "drain, resume or down many nodes at once, as scontrol update NodeName=LIST",
                    "openapi_resp",
                    "update_node_msg",
                    (q, arg) -> NodeWrites.updateMany(q.call, q.out))
            .post(
                    "new/node/",
                    "create a dynamic node, as scontrol create NodeName=",
                    "openapi_resp",
                    "openapi_create_node_req",
                    (q, arg) -> NodeWrites.create(q.call, q.out))
            .get(
                    "node/{node_name}",
                    "one node",
                    "openapi_nodes_resp",
                    (q, arg) -> ClusterEndpoints.nodes(q.call, q.out, List.of(arg), q.api.cluster))
            .post(
                    "node/{node_name}",
                    "drain or resume a node",
                    "openapi_resp",
                    "update_node_msg",
                    (q, arg) -> NodeWrites.updateOne(q.call, q.out, arg))
            .delete(
                    "node/{node_name}",
                    "remove a dynamic node",
                    "openapi_resp",
                    (q, arg) -> ClusterEndpoints.deleteNode(q.call, q.out, arg))
            .get(
                    "partitions/",
                    "every partition, as scontrol show partition",
                    "openapi_partition_resp",
                    (q, arg) -> ClusterEndpoints.partitions(q.call, q.out, List.of(), q.api.cluster))
            .get(
                    "partition/{partition_name}",
                    "one partition",
                    "openapi_partition_resp",
                    (q, arg) -> ClusterEndpoints.partitions(q.call, q.out, List.of(arg), q.api.cluster))
            .get(
                    "licenses/",
                    "licenses and their use, as scontrol show licenses",
                    "openapi_licenses_resp",
                    (q, arg) -> ClusterEndpoints.licenses(q.call, q.out, q.api.clock))
            .get(
                    "shares",
                    "the fair-share tree, as sshare",
                    "openapi_shares_resp",
                    (q, arg) -> Shares.shares(q.call, q.out))
            .get(
                    "reservations/",
                    "every advance reservation, as scontrol show reservation",
                    "openapi_reservation_resp",
                    (q, arg) -> ClusterEndpoints.reservations(q.call, q.out, null))
            .get(
                    "reservation/{reservation_name}",
                    "one advance reservation",
                    "openapi_reservation_resp",
                    (q, arg) -> ClusterEndpoints.reservations(q.call, q.out, arg))
            .post(
                    "reservation",
                    "create or update a reservation, as scontrol create/update reservation",
                    "openapi_reservation_mod_resp",
                    "reservation_desc_msg",
                    (q, arg) -> ReservationWrites.post(q.call, q.out, false))
            .post(
                    "reservations/",
                    "create or update reservations",
                    "openapi_reservation_mod_resp",
                    "reservation_mod_req",
                    (q, arg) -> ReservationWrites.post(q.call, q.out, true))
            .delete(
                    "reservation/{reservation_name}",
                    "delete a reservation, as scontrol delete reservation",
                    "openapi_resp",
                    (q, arg) -> ReservationWrites.delete(q.call, q.out, arg))
            .get(
                    "reconfigure/",
                    "reread the configuration, as scontrol reconfigure",
                    "openapi_resp",
                    (q, arg) -> ClusterEndpoints.reconfigure(q.call, q.out))
            .build();

    /** What this tree serves, in the order the document lists it. */
    public static final List<Route> ROUTES = ENDPOINTS.routes();

    private final ApiVersion version;
    private final String cluster;
    private final Clock clock;
    private final JobListings listings;
    private final Endpoints<Request> served;

    /** @param executor runs the controller asks that pollers share (JobListings) */
    public static Map<ApiVersion, SlurmApi> all(String cluster, Clock clock, Executor executor) {
        JobListings listings = new JobListings(executor, clock);
        Map<ApiVersion, SlurmApi> out = new EnumMap<>(ApiVersion.class);
        for (ApiVersion v : ApiVersion.values()) {
            out.put(v, new SlurmApi(v, cluster, clock, listings));
        }
        return out;
    }

    private SlurmApi(ApiVersion version, String cluster, Clock clock, JobListings listings) {
        this.listings = listings;
        this.version = requireNonNull(version, "version is null");
        this.cluster = requireNonNull(cluster, "cluster is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.served = endpoints(version);
    }

    /**
     * The routes of {@link #ROUTES} that data parser {@code v} has: reservation writes from
     * v0.0.43, dynamic node creation and resource layouts from v0.0.44, requeue from v0.0.45.
     */
    public static List<Route> routes(ApiVersion v) {
        return endpoints(v).routes();
    }

    private static Endpoints<Request> endpoints(ApiVersion v) {
        return ENDPOINTS.only(r -> v.compareTo(since(r)) >= 0);
    }

    /** The first data parser whose document has {@code r}. */
    private static ApiVersion since(Route r) {
        String t = r.template();
        if (t.contains("requeue")) {
            return ApiVersion.V0045;
        }
        if (t.startsWith("new/node") || t.startsWith("resources/")) {
            return ApiVersion.V0044;
        }
        if (t.startsWith("reservation") && !r.method().equals("GET")) {
            return ApiVersion.V0043;
        }
        return ApiVersion.V0042;
    }

    /** Empty when no endpoint of this version matches (the server answers 404 then). */
    public Optional<Reply> handle(Call call) {
        Optional<Endpoints.Bound<Request>> match = served.match(
                call.method(), call.path().substring(version.slurmPrefix().length()));
        if (match.isEmpty()) {
            return Optional.empty();
        }
        String op = match.get().key();
        String arg = match.get().arg();
        Envelope out = new Envelope(version.dataParser(), call.user(), call.source(), cluster);
        try {
            return Optional.ofNullable(match.get().handler().serve(new Request(this, call, out), arg));
        } catch (ControllerException e) {
            // The controller's own line when it gave one; else which request failed.
            String why = e.userMessage().isEmpty() ? op.replace("/*", "/" + arg) + " failed" : e.userMessage();
            out.error(e.number(), e.getMessage(), why, "slurmctld");
            return Optional.of(requiredShape(op, out).reply(500));
        } catch (BadRequest e) {
            out.error(e.kind.number(), e.kind.text(), e.getMessage(), call.path());
            return Optional.of(requiredShape(op, out).reply(e.kind.httpStatus()));
        } catch (Exception e) {
            throw Endpoints.unexpected(match.get(), e);
        }
    }

    /** A failed answer still has the fields its schema requires, empty. */
    private static Envelope requiredShape(String op, Envelope out) {
        ObjectNode body = out.body();
        switch (op) {
            case "GET ping" -> body.putArray("pings");
            case "GET diag" -> body.putObject("statistics");
            case "GET jobs", "GET job/*", "GET jobs/state" -> {
                body.putArray("jobs");
                body.set("last_backfill", Numbers.unset());
                body.set("last_update", Numbers.unset());
            }
            case "DELETE job/*", "DELETE jobs", "GET job/*/requeue", "POST jobs/requeue" -> body.withArray("status");
            case "GET resources/*" -> body.withArray("nodes");
            case "GET shares" -> {
                if (!body.has("shares")) {
                    body.putObject("shares").putArray("shares");
                }
            }
            case "POST job/*" -> body.withArray("results");
            case "GET licenses" -> {
                body.withArray("licenses");
                body.set("last_update", Numbers.unset());
            }
            case "GET nodes", "GET node/*" -> {
                body.putArray("nodes");
                body.set("last_update", Numbers.unset());
            }
            case "POST reservation", "POST reservations" -> body.withArray("reservations");
            case "GET reservations", "GET reservation/*" -> {
                body.withArray("reservations");
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
}
