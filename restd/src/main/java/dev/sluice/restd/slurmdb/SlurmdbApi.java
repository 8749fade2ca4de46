package dev.sluice.restd.slurmdb;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.cli.command.sacct.AccountingClient.AccountingException;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.protocol.v1.JobQuery;
import dev.sluice.restd.controller.AccountingSession;
import dev.sluice.restd.http.Endpoints;
import dev.sluice.restd.http.Envelope;
import dev.sluice.restd.http.Reply;
import dev.sluice.restd.http.RestErrors;
import dev.sluice.restd.http.Route;
import dev.sluice.restd.slurm.ApiVersion;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code /slurmdb/vX.Y.Z/} endpoints of one data parser version: ping, jobs and one job,
 * TRES, accounts, users, associations, QOS, wckeys, clusters, the daemon's statistics, the whole
 * configuration and (none) cloud instances, each asked of sluice-dbd as sacct and sacctmgr ask it,
 * with the REST user's token (so the daemon's own rules on who sees and changes what apply: a
 * plain user's change is its 2002, and changes nothing). This class routes a request and turns
 * failures into answers; {@link SlurmdbReads} answers the reads, {@link DbWrites} holds what the
 * writes share ({@link AccountChanges}, {@link UserChanges}, {@link AssocChanges}, {@link
 * QosChanges}, {@link ClusterChanges}, {@link WckeyChanges}, {@link ConfigChanges}, {@link
 * JobChanges}), with the
 * parameters {@link QueryParams} reads.
 */
public final class SlurmdbApi {
    /** One REST request, already authenticated; {@code accounting} empty where there is no dbd. */
    public record Call(
            String method,
            String path,
            Map<String, String> query,
            Optional<JsonNode> body,
            String user,
            String source,
            Optional<AccountingSession> accounting) {}

    /** One request as its handler sees it: who answers it, the call, the daemon to ask, the answer being built. */
    private record Request(SlurmdbApi api, Call call, AccountingSession dbd, Envelope out) {
        SlurmdbReads reads() {
            return api.reads;
        }
    }

    private static final Endpoints<Request> ENDPOINTS = Endpoints.<Request>builder()
            .get(
                    "ping/",
                    "ping the accounting daemon",
                    "openapi_slurmdbd_ping_resp",
                    (q, arg) -> q.reads().ping(q.dbd, q.out))
            .get(
                    "jobs/",
                    "jobs as accounting keeps them, as sacct",
                    "openapi_slurmdbd_jobs_resp",
                    (q, arg) -> q.reads().jobs(q.dbd, q.out, QueryParams.query(q.call.query())))
            .get(
                    "job/{job_id}",
                    "one job as accounting keeps it",
                    "openapi_slurmdbd_jobs_resp",
                    (q, arg) ->
                            q.reads().jobs(q.dbd, q.out, JobQuery.newBuilder().addJobIds(QueryParams.jobId(arg))))
            .post(
                    "job/{job_id}",
                    "change a job's accounting record, as sacctmgr modify job (its owner or operators)",
                    "openapi_job_modify_resp",
                    "job_modify",
                    (q, arg) -> JobChanges.one(q.dbd, q.out, arg, q.call.body(), q.api.cluster, q.api.zone))
            .post(
                    "jobs/",
                    "change jobs' accounting records, as sacctmgr modify job (their owner or operators)",
                    "openapi_job_modify_resp",
                    "openapi_job_modify_req",
                    (q, arg) -> JobChanges.many(q.dbd, q.out, q.call.body(), q.api.cluster, q.api.zone))
            .get(
                    "tres/",
                    "the TRES and their ids",
                    "openapi_tres_resp",
                    (q, arg) -> q.reads().tres(q.dbd, q.out))
            .get(
                    "accounts/",
                    "accounts, as sacctmgr show account",
                    "openapi_accounts_resp",
                    (q, arg) -> q.reads().accounts(q.dbd, q.out, arg))
            .post(
                    "accounts/",
                    "add or update accounts, as sacctmgr add/modify account (operators only)",
                    "openapi_resp",
                    "openapi_accounts_resp",
                    (q, arg) -> AccountChanges.add(q.dbd, q.out, q.call.body()))
            .get(
                    "account/{account_name}",
                    "one account",
                    "openapi_accounts_resp",
                    (q, arg) -> q.reads().accounts(q.dbd, q.out, arg))
            .delete(
                    "account/{account_name}",
                    "delete an account, as sacctmgr delete account (operators only)",
                    "openapi_accounts_removed_resp",
                    (q, arg) -> AccountChanges.delete(q.dbd, q.out, arg))
            .get(
                    "users/",
                    "users, as sacctmgr show user",
                    "openapi_users_resp",
                    (q, arg) -> q.reads().users(q.dbd, q.out, arg))
            .post(
                    "users/",
                    "add or update users, as sacctmgr add/modify user (operators only)",
                    "openapi_resp",
                    "openapi_users_resp",
                    (q, arg) -> UserChanges.add(q.dbd, q.out, q.call.body()))
            .post(
                    "users_association/",
                    "add users with associations, as sacctmgr add user account= (operators only)",
                    "openapi_users_add_cond_resp_str",
                    "openapi_users_add_cond_resp",
                    (q, arg) -> UserChanges.addWithAssociations(q.dbd, q.out, q.call.body()))
            .get(
                    "user/{name}",
                    "one user",
                    "openapi_users_resp",
                    (q, arg) -> q.reads().users(q.dbd, q.out, arg))
            .delete(
                    "user/{name}",
                    "delete a user, as sacctmgr delete user (operators only)",
                    "openapi_resp",
                    (q, arg) -> UserChanges.delete(q.dbd, q.out, arg))
            .get(
                    "associations/",
                    "associations, as sacctmgr show assoc",
                    "openapi_assocs_resp",
                    (q, arg) -> q.reads().associations(q.dbd, q.out, q.call.query()))
            .post(
                    "associations/",
                    "add or update associations, as sacctmgr add/modify (operators only)",
                    "openapi_resp",
                    "openapi_assocs_resp",
                    (q, arg) -> AssocChanges.add(q.dbd, q.out, q.call.body(), q.api.cluster))
            .delete(
                    "associations/",
                    "delete the users' associations the query picks (operators only)",
                    "openapi_assocs_removed_resp",
                    (q, arg) -> AssocChanges.delete(q.dbd, q.out, q.call.query(), q.api.cluster, false))
            .get(
                    "association/",
                    "the association the query picks",
                    "openapi_assocs_resp",
                    (q, arg) -> q.reads().associations(q.dbd, q.out, q.call.query()))
            .delete(
                    "association/",
                    "delete the one user's association the query picks (operators only)",
                    "openapi_assocs_removed_resp",
                    (q, arg) -> AssocChanges.delete(q.dbd, q.out, q.call.query(), q.api.cluster, true))
            .get(
                    "qos/",
                    "QOS, as sacctmgr show qos",
                    "openapi_slurmdbd_qos_resp",
                    (q, arg) -> q.reads().qos(q.dbd, q.out, QueryParams.list(q.call.query(), "name")))
            .get(
                    "qos/{qos}",
                    "one QOS",
                    "openapi_slurmdbd_qos_resp",
                    (q, arg) -> q.reads()
                            .qos(q.dbd, q.out, arg.isEmpty() ? QueryParams.list(q.call.query(), "name") : List.of(arg)))
            .post(
                    "qos/",
                    "add or update QOS, as sacctmgr add/modify qos (operators only)",
                    "openapi_resp",
                    "openapi_slurmdbd_qos_resp",
                    (q, arg) -> QosChanges.add(q.dbd, q.out, q.call.body()))
            .delete(
                    "qos/{qos}",
                    "delete a QOS, as sacctmgr delete qos (operators only)",
                    "openapi_slurmdbd_qos_removed_resp",
                    (q, arg) -> q.reads().deleteQos(q.dbd, q.out, arg))
            .get(
                    "wckeys/",
                    "users' wckeys, as sacctmgr show wckey (operators only)",
                    "openapi_wckey_resp",
                    (q, arg) -> WckeyChanges.list(q.dbd, q.out, q.call.query(), ""))
            .post(
                    "wckeys/",
                    "give users wckeys, as sacctmgr add user ... wckey= (operators only)",
                    "openapi_resp",
                    "openapi_wckey_resp",
                    (q, arg) -> WckeyChanges.add(q.dbd, q.out, q.call.body()))
            .get(
                    "wckey/{id}",
                    "one wckey by id (operators only)",
                    "openapi_wckey_resp",
                    (q, arg) -> WckeyChanges.list(q.dbd, q.out, Map.of(), arg))
            .delete(
                    "wckey/{id}",
                    "delete a wckey by id (operators only)",
                    "openapi_wckey_removed_resp",
                    (q, arg) -> WckeyChanges.delete(q.dbd, q.out, arg))
            .get(
                    "clusters/",
                    "clusters, as sacctmgr show cluster",
                    "openapi_clusters_resp",
                    (q, arg) -> q.reads().clusters(q.dbd, q.out, arg))
            .get(
                    "cluster/{cluster_name}",
                    "one cluster",
                    "openapi_clusters_resp",
                    (q, arg) -> q.reads().clusters(q.dbd, q.out, arg))
            .post(
                    "clusters/",
                    "add clusters, as sacctmgr add cluster (operators only)",
                    "openapi_resp",
                    "openapi_clusters_resp",
                    (q, arg) -> ClusterChanges.add(q.dbd, q.out, q.call.body()))
            .delete(
                    "cluster/{cluster_name}",
                    "delete a cluster: sluice-dbd deletes none, so it refuses",
                    "openapi_clusters_removed_resp",
                    (q, arg) -> ClusterChanges.delete(q.dbd, q.out, arg))
            .get(
                    "diag/",
                    "the accounting daemon's statistics, as sacctmgr show stats (operators only)",
                    "openapi_slurmdbd_stats_resp",
                    (q, arg) -> q.reads().diag(q.dbd, q.out))
            .get(
                    "config",
                    "the whole accounting configuration (operators only, as its wckeys)",
                    "openapi_slurmdbd_config_resp",
                    (q, arg) ->
                            ConfigChanges.get(q.reads(), q.dbd, q.out, q.api.version.compareTo(ApiVersion.V0045) < 0))
            .post(
                    "config",
                    "apply an accounting configuration (operators only)",
                    "openapi_resp",
                    "openapi_slurmdbd_config_resp",
                    (q, arg) -> ConfigChanges.post(q.dbd, q.out, q.call.body(), q.api.cluster))
            .get(
                    "instances/",
                    "cloud instances: sluice-dbd keeps none",
                    "openapi_instances_resp",
                    (q, arg) -> SlurmdbReads.instances(q.out))
            .get(
                    "instance/",
                    "one cloud instance: sluice-dbd keeps none",
                    "openapi_instances_resp",
                    (q, arg) -> SlurmdbReads.instances(q.out))
            .build();

    /** What this tree serves in its latest version, in the order the document lists it. */
    public static final List<Route> ROUTES = ENDPOINTS.routes();

    /** The routes of {@link #ROUTES} that data parser {@code v} has: job record changes from v0.0.44. */
    public static List<Route> routes(ApiVersion v) {
        return endpoints(v).routes();
    }

    private static Endpoints<Request> endpoints(ApiVersion v) {
        return ENDPOINTS.only(r -> v.compareTo(ApiVersion.V0044) >= 0
                || !r.method().equals("POST")
                || !r.template().startsWith("job"));
    }

    /**
     * Where this cluster's controller listens (its first SlurmctldHost and SlurmctldPort), which
     * sacctmgr show cluster prints; an empty host where it is not known.
     */
    public record Control(String host, int port) {
        public Control {
            requireNonNull(host, "host is null");
        }

        public static Control unknown() {
            return new Control("", 0);
        }
    }

    private final ApiVersion version;
    private final String cluster;
    private final SlurmdbReads reads;
    /** Where the submission times of changed jobs are printed (slurmdbd's local time). */
    private final java.time.ZoneId zone;

    private final Endpoints<Request> served;

    public SlurmdbApi(ApiVersion version, String cluster, Control control, Clock clock) {
        this.version = requireNonNull(version, "version is null");
        this.cluster = requireNonNull(cluster, "cluster is null");
        this.reads = new SlurmdbReads(cluster, control, clock);
        this.zone = clock.getZone();
        this.served = endpoints(version);
    }

    /** Empty when no endpoint of this version matches (the server answers 404 then). */
    public Optional<Reply> handle(Call call) {
        Optional<Endpoints.Bound<Request>> match = served.match(
                call.method(), call.path().substring(version.slurmdbPrefix().length()));
        if (match.isEmpty()) {
            return Optional.empty();
        }
        String key = match.get().key();
        String arg = match.get().arg();
        Envelope out = new Envelope(version.dataParser(), call.user(), call.source(), cluster, true);
        if (call.accounting().isEmpty()) {
            ErrorCode none = ErrorCode.DB_CONNECTION;
            out.error(none.number(), none.text(), "slurm.conf keeps no accounting through a slurmdbd", "restd");
            return Optional.of(requiredShape(key, out).reply(500));
        }
        AccountingSession dbd = call.accounting().get();
        try {
            return Optional.of(match.get().handler().serve(new Request(this, call, dbd, out), arg));
        } catch (AccountingException e) {
            if (e.code() != 0) {
                // The daemon's refusal (2002 for a plain user's change): its number and text.
                ErrorCode known = ErrorCode.fromNumber(e.code());
                String text = known.number() == e.code() ? known.text() : e.getMessage();
                out.error(e.code(), text, e.getMessage(), "slurmdbd");
            } else {
                out.error(ErrorCode.DB_CONNECTION.number(), e.getMessage(), key + " failed", "slurmdbd");
            }
            return Optional.of(requiredShape(key, out).reply(500));
        } catch (IllegalArgumentException e) {
            RestErrors bad = RestErrors.INVALID_QUERY;
            out.error(bad.number(), bad.text(), e.getMessage(), call.path());
            return Optional.of(requiredShape(key, out).reply(bad.httpStatus()));
        } catch (DbWrites.BadBody e) {
            RestErrors bad = RestErrors.FAIL_PARSING;
            out.error(bad.number(), bad.text(), e.getMessage(), call.path());
            return Optional.of(requiredShape(key, out).reply(bad.httpStatus()));
        } catch (Exception e) {
            throw Endpoints.unexpected(match.get(), e);
        }
    }

    /** A failed answer still has the fields its schema requires, empty. */
    private static Envelope requiredShape(String key, Envelope out) {
        ObjectNode body = out.body();
        switch (key) {
            case "GET ping" -> body.putArray("pings");
            case "GET jobs", "GET job/*" -> body.putArray("jobs");
            case "GET tres" -> body.putArray("TRES");
            case "GET accounts", "GET account/*" -> body.putArray("accounts");
            case "GET users", "GET user/*" -> body.putArray("users");
            case "GET qos", "GET qos/*" -> body.putArray("qos");
            case "DELETE qos/*" -> body.putArray("removed_qos");
            case "GET wckeys", "GET wckey/*" -> body.putArray("wckeys");
            case "DELETE wckey/*" -> body.putArray("deleted_wckeys");
            case "GET clusters", "GET cluster/*" -> body.putArray("clusters");
            case "GET associations", "GET association" -> body.putArray("associations");
            case "DELETE associations", "DELETE association" -> body.putArray("removed_associations");
            case "DELETE account/*" -> body.putArray("removed_accounts");
            case "DELETE cluster/*" -> body.putArray("deleted_clusters");
            case "POST users_association" -> body.put("added_users", "");
            case "POST job/*", "POST jobs" -> {
                if (!body.has("results")) {
                    body.putArray("results");
                }
            }
            case "GET instances", "GET instance" -> body.putArray("instances");
            case "GET diag" -> body.putObject("statistics");
            default -> {
                // openapi_resp: meta, errors and warnings only
            }
        }
        return out;
    }
}
