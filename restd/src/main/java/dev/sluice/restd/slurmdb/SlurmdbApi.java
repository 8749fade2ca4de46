package dev.sluice.restd.slurmdb;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.cli.command.sacct.AccountingClient.AccountingException;
import dev.sluice.cli.view.JobStates;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.protocol.v1.AccountedJob;
import dev.sluice.protocol.v1.AssocEntity;
import dev.sluice.protocol.v1.AssociationEntry;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.DeleteQosRequest;
import dev.sluice.protocol.v1.JobQuery;
import dev.sluice.protocol.v1.ListAssocRequest;
import dev.sluice.protocol.v1.ListAssocResult;
import dev.sluice.protocol.v1.ListQosRequest;
import dev.sluice.protocol.v1.ListTresRequest;
import dev.sluice.protocol.v1.QosEntry;
import dev.sluice.protocol.v1.TresEntry;
import dev.sluice.restd.controller.AccountingSession;
import dev.sluice.restd.http.Endpoints;
import dev.sluice.restd.http.Envelope;
import dev.sluice.restd.http.Reply;
import dev.sluice.restd.http.RestErrors;
import dev.sluice.restd.http.Route;
import dev.sluice.restd.slurm.ApiVersion;
import java.time.Clock;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code /slurmdb/vX.Y.Z/} endpoints of one data parser version: ping, jobs and one job,
 * TRES, accounts, users, associations, QOS, wckeys and clusters, each asked of sluice-dbd as sacct and sacctmgr ask
 * it, with the REST user's token (so the daemon's own rules on who sees what apply).
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

    /** One request as its handler sees it: the call, the daemon to ask, the answer being built, this tree. */
    private record Request(SlurmdbApi api, Call call, AccountingSession dbd, Envelope out) {}

    private static final Endpoints<Request> ENDPOINTS = Endpoints.<Request>builder()
            .get(
                    "ping/",
                    "ping the accounting daemon",
                    "openapi_slurmdbd_ping_resp",
                    (q, arg) -> q.api.ping(q.dbd, q.out))
            .get(
                    "jobs/",
                    "jobs as accounting keeps them, as sacct",
                    "openapi_slurmdbd_jobs_resp",
                    (q, arg) -> q.api.jobs(q.dbd, q.out, query(q.call.query())))
            .get(
                    "job/{job_id}",
                    "one job as accounting keeps it",
                    "openapi_slurmdbd_jobs_resp",
                    (q, arg) -> q.api.jobs(q.dbd, q.out, JobQuery.newBuilder().addJobIds(jobId(arg))))
            .get("tres/", "the TRES and their ids", "openapi_tres_resp", (q, arg) -> q.api.tres(q.dbd, q.out))
            .get(
                    "accounts/",
                    "accounts, as sacctmgr show account",
                    "openapi_accounts_resp",
                    (q, arg) -> q.api.accounts(q.dbd, q.out, arg))
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
                    (q, arg) -> q.api.accounts(q.dbd, q.out, arg))
            .get(
                    "users/",
                    "users, as sacctmgr show user",
                    "openapi_users_resp",
                    (q, arg) -> q.api.users(q.dbd, q.out, arg))
            .get("user/{name}", "one user", "openapi_users_resp", (q, arg) -> q.api.users(q.dbd, q.out, arg))
            .get(
                    "associations/",
                    "associations, as sacctmgr show assoc",
                    "openapi_assocs_resp",
                    (q, arg) -> q.api.associations(q.dbd, q.out, q.call.query()))
            .get(
                    "qos/",
                    "QOS, as sacctmgr show qos",
                    "openapi_slurmdbd_qos_resp",
                    (q, arg) -> q.api.qos(q.dbd, q.out, list(q.call.query(), "name")))
            .get(
                    "qos/{qos}",
                    "one QOS",
                    "openapi_slurmdbd_qos_resp",
                    (q, arg) -> q.api.qos(q.dbd, q.out, arg.isEmpty() ? list(q.call.query(), "name") : List.of(arg)))
            .delete(
                    "qos/{qos}",
                    "delete a QOS, as sacctmgr delete qos (operators only)",
                    "openapi_slurmdbd_qos_removed_resp",
                    (q, arg) -> q.api.deleteQos(q.dbd, q.out, arg))
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
                    (q, arg) -> q.api.clusters(q.dbd, q.out, arg))
            .get(
                    "cluster/{cluster_name}",
                    "one cluster",
                    "openapi_clusters_resp",
                    (q, arg) -> q.api.clusters(q.dbd, q.out, arg))
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
    private final Control control;
    private final Clock clock;

    public SlurmdbApi(ApiVersion version, String cluster, Control control, Clock clock) {
        this.version = requireNonNull(version, "version is null");
        this.cluster = requireNonNull(cluster, "cluster is null");
        this.control = requireNonNull(control, "control is null");
        this.clock = requireNonNull(clock, "clock is null");
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

    private Reply ping(AccountingSession dbd, Envelope out) throws AccountingException {
        long started = System.nanoTime();
        dbd.call(DbdRequest.newBuilder().setListTres(ListTresRequest.getDefaultInstance()));
        out.body()
                .putArray("pings")
                .addObject()
                .put("hostname", "slurmdbd")
                .put("responding", true)
                .put("latency", (System.nanoTime() - started) / 1000)
                .put("primary", true);
        return out.reply(200);
    }

    /** The query parameters slurmrestd takes for /jobs that sacct has an option for. */
    static JobQuery.Builder query(Map<String, String> q) {
        JobQuery.Builder b = JobQuery.newBuilder();
        list(q, "users").forEach(b::addUsers);
        list(q, "account").forEach(b::addAccounts);
        list(q, "partition").forEach(b::addPartitions);
        list(q, "cluster").forEach(b::addClusters);
        list(q, "job_name").forEach(b::addJobNames);
        for (String s : list(q, "state")) {
            b.addStates(JobStates.parse(s).orElseThrow(() -> new IllegalArgumentException("unknown job state " + s)));
        }
        if (q.containsKey("start_time")) {
            b.setWindowStart(epoch(q.get("start_time"), "start_time"));
        }
        if (q.containsKey("end_time")) {
            b.setWindowEnd(epoch(q.get("end_time"), "end_time"));
        }
        if ("true".equalsIgnoreCase(q.get("skip_steps"))) {
            b.setAllocationsOnly(true);
        }
        return b;
    }

    private Reply jobs(AccountingSession dbd, Envelope out, JobQuery.Builder query) throws AccountingException {
        Map<String, Integer> ids = tresIds(dbd);
        List<AccountedJob> found =
                dbd.call(DbdRequest.newBuilder().setQueryJobs(query)).getJobs().getJobsList();
        long now = clock.instant().getEpochSecond();
        ArrayNode jobs = out.body().putArray("jobs");
        found.forEach(j -> jobs.add(DbJobJson.of(j, ids, now)));
        return out.reply(200);
    }

    private Reply tres(AccountingSession dbd, Envelope out) throws AccountingException {
        ArrayNode list = out.body().putArray("TRES");
        for (TresEntry t : listTres(dbd)) {
            list.addObject().put("type", t.getType()).put("name", t.getName()).put("id", t.getId());
        }
        return out.reply(200);
    }

    private Reply accounts(AccountingSession dbd, Envelope out, String name) throws AccountingException {
        ListAssocResult r = listAssoc(dbd, AssocEntity.ACCOUNTS, name);
        out.body().set("accounts", AssocJson.accounts(r));
        return out.reply(200);
    }

    private Reply users(AccountingSession dbd, Envelope out, String name) throws AccountingException {
        ListAssocResult r = listAssoc(dbd, AssocEntity.USERS, name);
        out.body().set("users", AssocJson.users(r));
        return out.reply(200);
    }

    private Reply associations(AccountingSession dbd, Envelope out, Map<String, String> q) throws AccountingException {
        ListAssocRequest.Builder req = ListAssocRequest.newBuilder().setEntity(AssocEntity.ASSOCIATIONS);
        list(q, "account").forEach(req::addAccounts);
        list(q, "user").forEach(req::addUsers);
        list(q, "cluster").forEach(req::addClusters);
        ListAssocResult r = dbd.call(DbdRequest.newBuilder().setListAssoc(req)).getListed();
        out.body().set("associations", AssocJson.associations(r.getAssociationsList()));
        return out.reply(200);
    }

    private Reply qos(AccountingSession dbd, Envelope out, List<String> names) throws AccountingException {
        Map<String, Integer> ids = tresIds(dbd);
        List<QosEntry> found = dbd.call(DbdRequest.newBuilder()
                        .setListQos(ListQosRequest.newBuilder().addAllNames(names)))
                .getListedQos()
                .getQosList();
        out.body().set("qos", QosJson.list(found, ids));
        return out.reply(200);
    }

    /**
     * As sacctmgr delete qos, committed at once (slurmrestd asks no question). Nothing deleted is
     * a warning, as slurmrestd's "found nothing"; a refusal by the daemon deletes nothing.
     */
    private Reply deleteQos(AccountingSession dbd, Envelope out, String name) throws AccountingException {
        List<String> deleted = dbd.call(DbdRequest.newBuilder()
                        .setDeleteQos(
                                DeleteQosRequest.newBuilder().addNames(name).setCommit(true)))
                .getDeleted()
                .getDeletedList();
        ArrayNode removed = out.body().putArray("removed_qos");
        deleted.forEach(removed::add);
        if (deleted.isEmpty()) {
            out.warning("slurmdb_qos_remove found nothing", "slurmdbd");
        }
        return out.reply(200);
    }

    /** As sacctmgr show cluster: the clusters, then their root associations. */
    private Reply clusters(AccountingSession dbd, Envelope out, String name) throws AccountingException {
        List<String> names = name.isEmpty() ? List.of() : List.of(name);
        List<String> found = listAssoc(dbd, AssocEntity.CLUSTERS, name).getClustersList();
        List<AssociationEntry> roots = dbd.call(DbdRequest.newBuilder()
                        .setListAssoc(ListAssocRequest.newBuilder()
                                .setEntity(AssocEntity.ASSOCIATIONS)
                                .addAccounts("root")
                                .addAllClusters(names)))
                .getListed()
                .getAssociationsList();
        out.body().set("clusters", AssocJson.clusters(found, roots, cluster, control));
        return out.reply(200);
    }

    private static ListAssocResult listAssoc(AccountingSession dbd, AssocEntity entity, String name)
            throws AccountingException {
        ListAssocRequest.Builder req = ListAssocRequest.newBuilder().setEntity(entity);
        if (!name.isEmpty()) {
            req.addNames(name);
        }
        return dbd.call(DbdRequest.newBuilder().setListAssoc(req)).getListed();
    }

    private static List<TresEntry> listTres(AccountingSession dbd) throws AccountingException {
        return dbd.call(DbdRequest.newBuilder().setListTres(ListTresRequest.getDefaultInstance()))
                .getListedTres()
                .getTresList();
    }

    private static Map<String, Integer> tresIds(AccountingSession dbd) throws AccountingException {
        Map<String, Integer> ids = new HashMap<>();
        for (TresEntry t : listTres(dbd)) {
            ids.put(t.getName().isEmpty() ? t.getType() : t.getType() + "/" + t.getName(), t.getId());
        }
        return ids;
    }

    static List<String> list(Map<String, String> q, String key) {
        String v = q.get(key);
        if (v == null || v.isBlank()) {
            return List.of();
        }
        return Arrays.stream(v.split(","))
                .map(String::strip)
                .filter(s -> !s.isEmpty())
                .toList();
    }

    private static long epoch(String text, String field) {
        try {
            return Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(field + " must be seconds since the epoch: " + text);
        }
    }

    private static int jobId(String id) {
        try {
            int n = Integer.parseInt(id);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new IllegalArgumentException("invalid job id " + id);
    }
}
