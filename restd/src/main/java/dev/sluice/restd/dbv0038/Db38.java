package dev.sluice.restd.dbv0038;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.cli.UserDirectory;
import dev.sluice.cli.command.sacct.AccountingClient.AccountingException;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.slurm.AdminLevel;
import dev.sluice.protocol.v1.AccountedJob;
import dev.sluice.protocol.v1.AssocEntity;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.ListAssocRequest;
import dev.sluice.protocol.v1.ListAssocResult;
import dev.sluice.protocol.v1.ListQosRequest;
import dev.sluice.protocol.v1.ListTresRequest;
import dev.sluice.protocol.v1.ListWckeysRequest;
import dev.sluice.protocol.v1.QosEntry;
import dev.sluice.protocol.v1.TresEntry;
import dev.sluice.protocol.v1.UserEntry;
import dev.sluice.protocol.v1.WckeyEntry;
import dev.sluice.restd.controller.AccountingSession;
import dev.sluice.restd.controller.ControllerSession;
import dev.sluice.restd.http.Endpoints;
import dev.sluice.restd.http.Reply;
import dev.sluice.restd.http.Route;
import dev.sluice.restd.slurmdb.SlurmdbApi;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code /slurmdb/v0.0.38/} endpoints slurmrestd 22.05 serves (its openapi/dbv0.0.38): the
 * listings, the additions and changes of accounts, users and associations ({@link Posts38}),
 * and their deletions ({@link Deletes38}).
 */
public final class Db38 {
    public static final String PREFIX = "/slurmdb/v0.0.38/";

    /** What is served, for the dispatch and for {@code /openapi/v3} ({@link Db38Routes}). */
    public static final List<Route> ROUTES = Db38Routes.ALL.routes();

    /** One request as its handler sees it (Db38Routes): this tree, the call, sluice-dbd, the answer being built. */
    record Request(Db38 api, Call call, Fetch db, DbEnvelope38 out) {}

    /** One request, already authenticated; {@code accounting} empty where there is no dbd. */
    public record Call(
            String method,
            String path,
            String rawQuery,
            Map<String, String> query,
            Optional<JsonNode> body,
            String user,
            Optional<AccountingSession> accounting,
            ControllerSession controller) {}

    final String cluster;
    final Clusters38 clusters;
    final Clock clock;
    private final UserDirectory users;

    public Db38(String cluster, SlurmdbApi.Control control, Clock clock, UserDirectory users) {
        this.cluster = requireNonNull(cluster, "cluster is null");
        this.clusters = new Clusters38(cluster, control);
        this.clock = requireNonNull(clock, "clock is null");
        this.users = requireNonNull(users, "users is null");
    }

    /** The dbv0.0.38 endpoint {@code call} names; empty for a path outside it. */
    private static Optional<Endpoints.Bound<Request>> route(Call call) {
        return call.path().startsWith(PREFIX)
                ? Db38Routes.ALL.match(call.method(), call.path().substring(PREFIX.length()))
                : Optional.empty();
    }

    /** Empty when {@code path} is no endpoint of dbv0.0.38. */
    public Optional<Reply> handle(Call call) {
        Optional<Endpoints.Bound<Request>> match = route(call);
        if (match.isEmpty()) {
            return Optional.empty();
        }
        if (call.rawQuery() != null && call.rawQuery().contains(",")) {
            // 22.05's query reader takes a list only with its commas encoded (%2C): a bare one
            // refuses the request before any data parser sees it (compat 154).
            return Optional.of(Reply.text(400, "Unable to parse query."));
        }
        String key = match.get().key();
        String arg = match.get().arg();
        DbEnvelope38 out = new DbEnvelope38();
        if (call.accounting().isEmpty()) {
            ErrorCode none = ErrorCode.DB_CONNECTION;
            return Optional.of(
                    out.error(null, none.number(), none.text(), source(key)).reply(500));
        }
        Fetch db = new Fetch(call.accounting().get());
        try {
            return Optional.of(match.get().handler().serve(new Request(this, call, db, out), arg));
        } catch (JobFilter38.BadQuery e) {
            // slurmrestd refuses the query before it asks anything, without the listing's key.
            return Optional.of(out.error(
                            e.getMessage(),
                            DbEnvelope38.INVALID_QUERY,
                            "Query empty or not RFC7320 compliant",
                            e.source())
                    .reply(500));
        } catch (AccountingException e) {
            ErrorCode known = ErrorCode.fromNumber(e.code());
            int number = e.code() != 0 ? e.code() : ErrorCode.DB_CONNECTION.number();
            String text = e.code() != 0 && known.number() == e.code() ? known.text() : e.getMessage();
            emptyListing(key, out);
            return Optional.of(out.error(null, number, text, source(key)).reply(500));
        } catch (Exception e) {
            throw Endpoints.unexpected(match.get(), e);
        }
    }

    /** Whether some method is served at {@code path} (one this tree has): 22.05 answers 405, not 404. */
    public static boolean servesPath(String path) {
        String rest = path.substring(PREFIX.length());
        return java.util.stream.Stream.of("GET", "POST", "DELETE")
                .anyMatch(m -> Db38Routes.ALL.match(m, rest).isPresent());
    }

    /**
     * The answer to a request whose token was refused, as slurmrestd 22.05 gives it once
     * slurmdbd has refused the token (compat 277); empty when the path is no endpoint.
     * {@code call}'s sessions must refuse every request, as the daemons would: endpoints the
     * recording did not cover word that refusal as any other.
     */
    public Optional<Reply> refused(Call call) {
        Optional<Endpoints.Bound<Request>> match = route(call);
        if (match.isEmpty()) {
            return Optional.empty();
        }
        boolean unreadQuery = call.rawQuery() != null && call.rawQuery().contains(",");
        Optional<Reply> worded =
                unreadQuery ? Optional.empty() : RefusedDb38.answer(match.get().key());
        return worded.isPresent() ? worded : handle(call);
    }

    /** The slurmdb call slurmrestd names in an error: {@code slurmdb_jobs_get}, {@code slurmdb_users_remove}, ... */
    private static String source(String key) {
        String what = key.substring(key.indexOf(' ') + 1).replaceAll("/.*", "");
        String call = key.startsWith("DELETE ") ? "_remove" : key.startsWith("POST ") ? "_add" : "_get";
        return switch (what) {
            case "job", "jobs" -> "slurmdb_jobs" + call;
            case "account", "accounts" -> "slurmdb_accounts" + call;
            case "user", "users" -> "slurmdb_users" + call;
            case "association", "associations" -> "slurmdb_associations" + call;
            case "wckey", "wckeys" -> "slurmdb_wckeys" + call;
            case "cluster", "clusters" -> "slurmdb_clusters" + call;
            case "config" -> "slurmdb_config" + call;
            case "diag" -> "slurmdb_get_stats";
            default -> "slurmdb_" + what + call;
        };
    }

    /** A failed listing still has its (empty) list, as slurmrestd's does. */
    private static void emptyListing(String key, DbEnvelope38 out) {
        String field = switch (key) {
            case "GET jobs", "GET job/*" -> "jobs";
            case "GET accounts", "GET account/*" -> "accounts";
            case "GET users", "GET user/*" -> "users";
            case "GET qos", "GET qos/*" -> "QOS";
            case "GET tres" -> "TRES";
            case "GET clusters", "GET cluster/*" -> "clusters";
            case "DELETE cluster/*" -> "deleted_clusters";
            case "GET wckeys", "GET wckey/*" -> "wckeys";
            default -> null;
        };
        if (field != null) {
            out.body().putArray(field);
        }
    }

    Reply jobs(Fetch db, DbEnvelope38 out, JobFilter38 filter) throws AccountingException {
        List<TresEntry> tres = db.tres();
        List<AccountedJob> found = new ArrayList<>();
        if (filter.query().isPresent()) {
            found.addAll(db.dbd
                    .call(DbdRequest.newBuilder().setQueryJobs(filter.query().get()))
                    .getJobs()
                    .getJobsList());
        }
        ArrayNode jobs = out.body().putArray("jobs");
        found.stream().filter(filter::keeps).map(filter::steps).forEach(j -> jobs.add(Jobs38.of(j, tres, users)));
        if (jobs.isEmpty()) {
            out.nothingFound("slurmdb_jobs_get");
        }
        return out.reply(200);
    }

    static Reply accounts(Fetch db, DbEnvelope38 out, String name) throws AccountingException {
        ListAssocResult listed = db.list(AssocEntity.ACCOUNTS, name);
        ArrayNode accounts = Assoc38.accounts(listed.getAccountsList(), db.tree());
        out.body().set("accounts", accounts);
        if (accounts.isEmpty()) {
            return out.nothingFound("slurmdb_accounts_get").reply(500);
        }
        return out.reply(200);
    }

    static Reply users(Fetch db, DbEnvelope38 out, String name) throws AccountingException {
        ListAssocResult listed = db.list(AssocEntity.USERS, name);
        ArrayNode users = Assoc38.users(listed.getUsersList(), db.tree());
        out.body().set("users", users);
        if (users.isEmpty()) {
            return out.nothingFound("slurmdb_users_get").reply(500);
        }
        return out.reply(200);
    }

    static Reply associations(Fetch db, DbEnvelope38 out) throws AccountingException {
        Assoc38.Tree tree = db.tree();
        out.body().set("associations", Assoc38.associations(tree.associations(), tree, db.tres()));
        return out.reply(200);
    }

    /** A QOS that does not exist is an empty list, without an error (slurmrestd 22.05). */
    static Reply qos(Fetch db, DbEnvelope38 out, String name) throws AccountingException {
        out.body().set("QOS", Qos38.list(db.qos(name), db.tres()));
        return out.reply(200);
    }

    static Reply tres(Fetch db, DbEnvelope38 out) throws AccountingException {
        out.body().set("TRES", tresListing(db.tres()));
        return out.reply(200);
    }

    /** The TRES table as slurmdbd lists it: its dynamic_offset row included, every count 0. */
    private static ArrayNode tresListing(List<TresEntry> tres) {
        ArrayNode list = DbEnvelope38.F.arrayNode();
        List<TresEntry> all = new ArrayList<>(tres);
        if (all.stream().noneMatch(t -> t.getId() == Tres38.DYNAMIC_OFFSET.getId())) {
            all.add(Tres38.DYNAMIC_OFFSET);
        }
        all.stream()
                .sorted(java.util.Comparator.comparingInt(TresEntry::getId))
                .forEach(t -> list.add(Tres38.entry(t, 0L)));
        return list;
    }

    Reply clusters(Fetch db, DbEnvelope38 out, ControllerSession controller) throws AccountingException {
        out.body().set("clusters", clusters.list(db.list(AssocEntity.CLUSTERS, ""), db.tres(), controller));
        return out.reply(200);
    }

    /**
     * Everything at once, as slurmrestd gathers it: QOS, TRES, accounts, clusters, users and
     * wckeys. Sluice keeps no wckeys; listing them is an operator's right in slurmdbd, so a
     * plain user's config answer carries slurmdbd's refusal for them (and status 500).
     */
    Reply config(Fetch db, DbEnvelope38 out, Call call) throws AccountingException {
        ObjectNode body = out.body();
        body.set("QOS", Qos38.list(db.qos(""), db.tres()));
        body.set("TRES", tresListing(db.tres()));
        Assoc38.Tree tree = db.tree();
        body.set("accounts", Assoc38.accounts(db.list(AssocEntity.ACCOUNTS, "").getAccountsList(), tree));
        body.set("clusters", clusters.list(db.list(AssocEntity.CLUSTERS, ""), db.tres(), call.controller()));
        List<UserEntry> users = db.list(AssocEntity.USERS, "").getUsersList();
        body.set("users", Assoc38.users(users, tree));
        body.putArray("wckeys");
        if (!operator(users, call.user())) {
            ErrorCode denied = ErrorCode.ACCESS_DENIED;
            out.error(null, denied.number(), denied.text(), "slurmdb_wckeys_get");
            return out.reply(500);
        }
        return out.reply(200);
    }

    /**
     * The wckeys, all ({@code name} empty) or one name's: users' wckeys as sacctmgr gave them,
     * the user's default flagged {@code DEFAULT} (compat 208); none is "Nothing found" with
     * status 500. Anyone but an operator gets slurmdbd's refusal, as listing wckeys is an
     * operator's right there (compat 157).
     */
    static Reply wckeys(Fetch db, DbEnvelope38 out, String user, String name) throws AccountingException {
        ArrayNode list = out.body().putArray("wckeys");
        if (!operator(db.list(AssocEntity.USERS, "").getUsersList(), user)) {
            ErrorCode denied = ErrorCode.ACCESS_DENIED;
            return out.error(null, denied.number(), denied.text(), "slurmdb_wckeys_get")
                    .reply(500);
        }
        ListWckeysRequest.Builder req = ListWckeysRequest.newBuilder();
        if (!name.isEmpty()) {
            req.addNames(name);
        }
        List<WckeyEntry> found = db.dbd
                .call(DbdRequest.newBuilder().setListWckeys(req))
                .getListedWckeys()
                .getWckeysList();
        if (found.isEmpty()) {
            return out.nothingFound("slurmdb_wckeys_get").reply(500);
        }
        for (WckeyEntry w : found) {
            ObjectNode o = list.addObject();
            // Usage per account is reported only when asked for (with_usage), never here.
            o.putArray("accounts");
            o.put("cluster", w.getCluster());
            ArrayNode flags = o.putArray("flags");
            if (w.getIsDefault()) {
                flags.add("DEFAULT");
            }
            o.put("id", Integer.toUnsignedLong(w.getId()));
            o.put("name", w.getName());
            o.put("user", w.getUser());
        }
        return out.reply(200);
    }

    /** Delegate for branches still calling the listing without a name: every wckey. */
    static Reply wckeys(Fetch db, DbEnvelope38 out, String user) throws AccountingException {
        return wckeys(db, out, user, "");
    }

    /** root, or a user whose AdminLevel is Operator or Administrator. */
    static boolean operator(List<UserEntry> users, String user) {
        return user.equals("root")
                || users.stream()
                        .anyMatch(u -> u.getName().equals(user)
                                && AdminLevel.of(u.getAdminLevel())
                                        .map(AdminLevel::atLeastOperator)
                                        .orElse(false));
    }

    /** sluice-dbd, each listing asked for once per request. */
    static final class Fetch {
        final AccountingSession dbd;
        private List<TresEntry> tres;
        private Assoc38.Tree tree;

        Fetch(AccountingSession dbd) {
            this.dbd = dbd;
        }

        List<TresEntry> tres() throws AccountingException {
            if (tres == null) {
                tres = dbd.call(DbdRequest.newBuilder().setListTres(ListTresRequest.getDefaultInstance()))
                        .getListedTres()
                        .getTresList();
            }
            return tres;
        }

        List<QosEntry> qos(String name) throws AccountingException {
            ListQosRequest.Builder req = ListQosRequest.newBuilder();
            if (!name.isEmpty()) {
                req.addNames(name);
            }
            return dbd.call(DbdRequest.newBuilder().setListQos(req))
                    .getListedQos()
                    .getQosList();
        }

        ListAssocResult list(AssocEntity entity, String name) throws AccountingException {
            ListAssocRequest.Builder req = ListAssocRequest.newBuilder().setEntity(entity);
            if (!name.isEmpty()) {
                req.addNames(name);
            }
            return dbd.call(DbdRequest.newBuilder().setListAssoc(req)).getListed();
        }

        Assoc38.Tree tree() throws AccountingException {
            if (tree == null) {
                tree = Assoc38.Tree.of(
                        list(AssocEntity.ASSOCIATIONS, "").getAssociationsList(),
                        list(AssocEntity.USERS, "").getUsersList());
            }
            return tree;
        }
    }
}
