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
 * TRES, accounts, users, associations, QOS, wckeys and clusters, each asked of sluice-dbd as sacct and sacctmgr ask
 * it, with the REST user's token (so the daemon's own rules on who sees what apply). This class
 * routes a request and turns failures into answers; {@link SlurmdbReads}, {@link AccountChanges}
 * and {@link WckeyChanges} ask sluice-dbd, with the parameters {@link QueryParams} reads.
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
    private record Request(SlurmdbReads reads, Call call, AccountingSession dbd, Envelope out) {}

    private static final Endpoints<Request> ENDPOINTS = Endpoints.<Request>builder()
            .get(
                    "ping/",
                    "ping the accounting daemon",
                    "openapi_slurmdbd_ping_resp",
                    (q, arg) -> q.reads.ping(q.dbd, q.out))
            .get(
                    "jobs/",
                    "jobs as accounting keeps them, as sacct",
                    "openapi_slurmdbd_jobs_resp",
                    (q, arg) -> q.reads.jobs(q.dbd, q.out, QueryParams.query(q.call.query())))
            .get(
                    "job/{job_id}",
                    "one job as accounting keeps it",
                    "openapi_slurmdbd_jobs_resp",
                    (q, arg) -> q.reads.jobs(q.dbd, q.out, JobQuery.newBuilder().addJobIds(QueryParams.jobId(arg))))
            .get("tres/", "the TRES and their ids", "openapi_tres_resp", (q, arg) -> q.reads.tres(q.dbd, q.out))
            .get(
                    "accounts/",
                    "accounts, as sacctmgr show account",
                    "openapi_accounts_resp",
                    (q, arg) -> q.reads.accounts(q.dbd, q.out, arg))
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
                    (q, arg) -> q.reads.accounts(q.dbd, q.out, arg))
            .get(
                    "users/",
                    "users, as sacctmgr show user",
                    "openapi_users_resp",
                    (q, arg) -> q.reads.users(q.dbd, q.out, arg))
            .get("user/{name}", "one user", "openapi_users_resp", (q, arg) -> q.reads.users(q.dbd, q.out, arg))
            .get(
                    "associations/",
                    "associations, as sacctmgr show assoc",
                    "openapi_assocs_resp",
                    (q, arg) -> q.reads.associations(q.dbd, q.out, q.call.query()))
            .get(
                    "qos/",
                    "QOS, as sacctmgr show qos",
                    "openapi_slurmdbd_qos_resp",
                    (q, arg) -> q.reads.qos(q.dbd, q.out, QueryParams.list(q.call.query(), "name")))
            .get(
                    "qos/{qos}",
                    "one QOS",
                    "openapi_slurmdbd_qos_resp",
                    (q, arg) -> q.reads.qos(
                            q.dbd, q.out, arg.isEmpty() ? QueryParams.list(q.call.query(), "name") : List.of(arg)))
            .delete(
                    "qos/{qos}",
                    "delete a QOS, as sacctmgr delete qos (operators only)",
                    "openapi_slurmdbd_qos_removed_resp",
                    (q, arg) -> q.reads.deleteQos(q.dbd, q.out, arg))
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
                    (q, arg) -> q.reads.clusters(q.dbd, q.out, arg))
            .get(
                    "cluster/{cluster_name}",
                    "one cluster",
                    "openapi_clusters_resp",
                    (q, arg) -> q.reads.clusters(q.dbd, q.out, arg))
            .build();

    /** What this tree serves, in the order the document lists it. */
    public static final List<Route> ROUTES = ENDPOINTS.routes();

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

    public SlurmdbApi(ApiVersion version, String cluster, Control control, Clock clock) {
        this.version = requireNonNull(version, "version is null");
        this.cluster = requireNonNull(cluster, "cluster is null");
        this.reads = new SlurmdbReads(cluster, control, clock);
    }

    /** Empty when no endpoint of this version matches (the server answers 404 then). */
    public Optional<Reply> handle(Call call) {
        Optional<Endpoints.Bound<Request>> match = ENDPOINTS.match(
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
            return Optional.of(match.get().handler().serve(new Request(reads, call, dbd, out), arg));
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
        } catch (AccountChanges.BadBody e) {
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
            case "GET associations" -> body.putArray("associations");
            default -> {
                // openapi_resp: meta, errors and warnings only
            }
        }
        return out;
    }
}
