package dev.sluice.restd.dbv0038;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.cli.command.sacct.AccountingClient.AccountingException;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.slurm.AdminLevel;
import dev.sluice.protocol.v1.AccountEntry;
import dev.sluice.protocol.v1.AddAccountsRequest;
import dev.sluice.protocol.v1.AddQosRequest;
import dev.sluice.protocol.v1.AddUsersRequest;
import dev.sluice.protocol.v1.AssocEntity;
import dev.sluice.protocol.v1.AssociationLimits;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.ListAssocRequest;
import dev.sluice.protocol.v1.ListQosRequest;
import dev.sluice.protocol.v1.ListTresRequest;
import dev.sluice.protocol.v1.ModifyAssocRequest;
import dev.sluice.protocol.v1.ModifyQosRequest;
import dev.sluice.protocol.v1.QosEntry;
import dev.sluice.protocol.v1.UserEntry;
import dev.sluice.restd.controller.AccountingSession;
import dev.sluice.restd.http.Reply;
import dev.sluice.restd.http.RestErrors;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * dbv0.0.38's "add or update" of accounts, users, associations and QOS, as slurmrestd 22.05
 * does them (compat 158, 159): an account or a user is added alone, without any association (those
 * come through {@code POST associations}), or changed when it exists. The whole body is read
 * before sluice-dbd is asked; every change is tried without committing first and committed only
 * when none is refused, so a refused request (a plain user's: 2002) changes nothing. Fields
 * Sluice does not apply here are refused when they hold a value, rather than dropped.
 */
final class Posts38 {
    /** A request refused before or by sluice-dbd: the answer as built so far, and its status. */
    static final class Refused extends Exception {
        final transient DbEnvelope38 out;
        final int status;

        Refused(DbEnvelope38 out, int status) {
            super(null, null, false, false);
            this.out = out;
            this.status = status;
        }
    }

    /** slurmdb's failure without a Slurm error behind it: -1, "Unspecified error". */
    static final int UNSPECIFIED = -1;

    static final String UNSPECIFIED_TEXT = "Unspecified error";

    private Posts38() {}

    static Reply accounts(AccountingSession dbd, DbEnvelope38 out, Optional<JsonNode> body) {
        try {
            return apply(dbd, accountChanges(dbd, out, body), out, "slurmdb_accounts_add", 500, false);
        } catch (Refused r) {
            return r.out.reply(r.status);
        }
    }

    /** What {@code POST accounts} asks of sluice-dbd, read whole before anything is asked. */
    static List<DbdRequest.Builder> accountChanges(AccountingSession dbd, DbEnvelope38 out, Optional<JsonNode> body)
            throws Refused {
        List<JsonNode> wanted = list(body, "accounts", out);
        List<DbdRequest.Builder> changes = new ArrayList<>();
        Set<String> existing = names(dbd, AssocEntity.ACCOUNTS, wanted, out);
        for (JsonNode a : wanted) {
            String name = text(a, "name");
            blank(a, Set.of("name", "description", "organization"), "slurmdb_accounts_add", out, 500);
            if (name.isEmpty()) {
                throw unspecified(out, "slurmdb_accounts_add", 500);
            }
            if (existing.contains(name)) {
                ModifyAssocRequest.Builder m = ModifyAssocRequest.newBuilder()
                        .setEntity(AssocEntity.ACCOUNTS)
                        .addNames(name);
                optional(a, "description").ifPresent(m::setDescription);
                optional(a, "organization").ifPresent(m::setOrganization);
                changes.add(DbdRequest.newBuilder().setModifyAssoc(m));
            } else {
                AddAccountsRequest.Builder add =
                        AddAccountsRequest.newBuilder().addNames(name).setWithoutAssociations(true);
                optional(a, "description").ifPresent(add::setDescription);
                optional(a, "organization").ifPresent(add::setOrganization);
                changes.add(DbdRequest.newBuilder().setAddAccounts(add));
            }
        }
        return changes;
    }

    static Reply users(AccountingSession dbd, DbEnvelope38 out, Optional<JsonNode> body) {
        try {
            return apply(dbd, userChanges(dbd, out, body), out, "slurmdb_users_add", 500, false);
        } catch (Refused r) {
            return r.out.reply(r.status);
        }
    }

    /** What {@code POST users} asks of sluice-dbd. */
    static List<DbdRequest.Builder> userChanges(AccountingSession dbd, DbEnvelope38 out, Optional<JsonNode> body)
            throws Refused {
        List<JsonNode> wanted = list(body, "users", out);
        List<DbdRequest.Builder> changes = new ArrayList<>();
        Set<String> existing = names(dbd, AssocEntity.USERS, wanted, out);
        for (JsonNode u : wanted) {
            String name = text(u, "name");
            // 22.05 reads a default account and then adds the user without it (no association).
            blank(u, Set.of("name", "administrator_level", "default"), "slurmdb_users_add", out, 500);
            Optional<String> level = optional(u, "administrator_level");
            if (level.isPresent() && AdminLevel.of(level.get()).isEmpty()) {
                throw new Refused(
                        out.error(
                                "Failed to parse field 'administrator_level'",
                                RestErrors.FAIL_PARSING.number(),
                                RestErrors.FAIL_PARSING.text(),
                                "_parser_run"),
                        400);
            }
            if (name.isEmpty()) {
                out.parserNote("Missing required field 'name'");
                throw unspecified(out, "slurmdb_users_add", 500);
            }
            if (existing.contains(name)) {
                if (level.isPresent()) {
                    changes.add(DbdRequest.newBuilder()
                            .setModifyAssoc(ModifyAssocRequest.newBuilder()
                                    .setEntity(AssocEntity.USERS)
                                    .addNames(name)
                                    .setAdminLevel(level.get())));
                }
            } else {
                changes.add(DbdRequest.newBuilder()
                        .setAddUsers(AddUsersRequest.newBuilder()
                                .addNames(name)
                                .setAdminLevel(level.orElse(AdminLevel.NONE.text()))
                                .setWithoutAssociations(true)));
            }
        }
        return changes;
    }

    /**
     * A user's association under an account ({@code user} given) or an account's under its
     * parent; only {@code shares_raw} of the limits is applied. 22.05 reads an account's
     * association as a user's that lacks its user, and says so, yet adds it (status 200).
     */
    static Reply associations(AccountingSession dbd, DbEnvelope38 out, Optional<JsonNode> body, String cluster) {
        try {
            // slurmdbd's refusals of an association (no such account, a plain user's) reach
            // slurmrestd 22.05 as a failure without a number: -1, with status 400.
            return apply(dbd, associationChanges(out, body, cluster), out, ASSOCIATIONS_ADD, 400, true);
        } catch (Refused r) {
            return r.out.reply(r.status);
        }
    }

    static final String ASSOCIATIONS_ADD = "slurmdb_associations_add";

    /** What {@code POST associations} asks of sluice-dbd. */
    static List<DbdRequest.Builder> associationChanges(DbEnvelope38 out, Optional<JsonNode> body, String cluster)
            throws Refused {
        String source = ASSOCIATIONS_ADD;
        List<JsonNode> wanted = list(body, "associations", out);
        List<DbdRequest.Builder> changes = new ArrayList<>();
        for (JsonNode a : wanted) {
            blank(a, Set.of("account", "cluster", "user", "parent_account", "shares_raw"), source, out, 400);
            String account = text(a, "account");
            String user = text(a, "user");
            String on = text(a, "cluster");
            if (account.isEmpty() || !(on.isEmpty() || on.equals(cluster))) {
                throw unspecified(out, source, 400);
            }
            AssociationLimits.Builder limits = AssociationLimits.newBuilder();
            JsonNode shares = a.path("shares_raw");
            if (shares.canConvertToInt() && shares.asInt() >= 0) {
                limits.setShares(shares.asInt());
            } else if (!shares.isMissingNode() && !shares.isNull()) {
                throw unspecified(out, source, 400);
            }
            if (user.isEmpty()) {
                out.parserNote("Missing required field 'user'");
                changes.add(DbdRequest.newBuilder()
                        .setAddAccounts(AddAccountsRequest.newBuilder()
                                .addNames(account)
                                .setParent(text(a, "parent_account"))
                                .addClusters(cluster)
                                .setLimits(limits)));
            } else {
                changes.add(DbdRequest.newBuilder()
                        .setAddUsers(AddUsersRequest.newBuilder()
                                .addNames(user)
                                .addAccounts(account)
                                .addClusters(cluster)
                                .setLimits(limits)));
            }
        }
        return changes;
    }

    /**
     * QOS with their settings and limits ({@link QosBody38}): a new one added as sacctmgr adds it
     * (what is not given Slurm's defaults), one that exists changed. 22.05 refuses what it
     * refuses here with status 400, a plain user's 2002 included.
     */
    static Reply qos(AccountingSession dbd, DbEnvelope38 out, Optional<JsonNode> body) {
        try {
            return apply(dbd, qosChanges(dbd, out, body), out, QOS_ADD, 400, false);
        } catch (AccountingException e) {
            ErrorCode db = ErrorCode.DB_CONNECTION;
            return out.error(null, db.number(), db.text(), "slurmdb_qos_get").reply(500);
        } catch (Refused r) {
            return r.out.reply(r.status);
        }
    }

    static final String QOS_ADD = "slurmdb_qos_add";

    /** What {@code POST qos} asks of sluice-dbd; the QOS and TRES known are asked first. */
    static List<DbdRequest.Builder> qosChanges(AccountingSession dbd, DbEnvelope38 out, Optional<JsonNode> body)
            throws Refused, AccountingException {
        List<JsonNode> wanted = list(body, "QOS", out, 400);
        java.util.Map<String, QosEntry> existing = new java.util.HashMap<>();
        dbd.call(DbdRequest.newBuilder().setListQos(ListQosRequest.getDefaultInstance()))
                .getListedQos()
                .getQosList()
                .forEach(q -> existing.put(q.getName(), q));
        QosBody38 reader = new QosBody38(
                dbd.call(DbdRequest.newBuilder().setListTres(ListTresRequest.getDefaultInstance()))
                        .getListedTres()
                        .getTresList(),
                existing.keySet(),
                out);
        List<DbdRequest.Builder> changes = new ArrayList<>();
        for (JsonNode q : wanted) {
            String name = text(q, "name");
            if (name.isEmpty()) {
                RestErrors invalid = RestErrors.INVALID_QUERY;
                throw new Refused(
                        out.error(
                                "Cannot create a QOS without a name",
                                invalid.number(),
                                invalid.text(),
                                "_foreach_update_qos"),
                        400);
            }
            QosEntry.Builder settings = QosEntry.newBuilder().setName(name);
            List<String> given = new ArrayList<>();
            optional(q, "description").ifPresent(d -> {
                settings.setDescription(d);
                given.add("description");
            });
            JsonNode priority = q.path("priority");
            if (!priority.isMissingNode() && !priority.isNull()) {
                if (!priority.canConvertToInt() || !priority.isIntegralNumber() || priority.asInt() < 0) {
                    RestErrors conv = RestErrors.DATA_CONVERSION;
                    throw new Refused(
                            out.error("Failed to parse field 'priority'", conv.number(), conv.text(), "_parser_run"),
                            400);
                }
                settings.setPriority(priority.asInt());
                given.add("priority");
            }
            reader.read(q, existing.get(name), settings, given);
            changes.add(
                    existing.containsKey(name)
                            ? DbdRequest.newBuilder()
                                    .setModifyQos(ModifyQosRequest.newBuilder()
                                            .addNames(name)
                                            .setSettings(settings)
                                            .addAllGiven(given))
                            : DbdRequest.newBuilder()
                                    .setAddQos(AddQosRequest.newBuilder()
                                            .addNames(name)
                                            .setSettings(settings)
                                            .addAllGiven(given)));
        }
        return changes;
    }

    /**
     * Every change tried, then every one committed; the first refusal ends it, changing nothing.
     * A refusal is 2002 when sluice-dbd's is, else -1; {@code numberless}: -1 whatever it was.
     */
    static Reply apply(
            AccountingSession dbd,
            List<DbdRequest.Builder> changes,
            DbEnvelope38 out,
            String source,
            int status,
            boolean numberless)
            throws Refused {
        attempt(dbd, changes, out, source, status, numberless, false);
        attempt(dbd, changes, out, source, status, numberless, true);
        return out.reply(200);
    }

    /** Every change asked, committed or only tried; the first refusal ends it, as in {@link #apply}. */
    static void attempt(
            AccountingSession dbd,
            List<DbdRequest.Builder> changes,
            DbEnvelope38 out,
            String source,
            int status,
            boolean numberless,
            boolean commit)
            throws Refused {
        for (DbdRequest.Builder change : changes) {
            try {
                dbd.call(withCommit(change.clone(), commit));
            } catch (AccountingException e) {
                if (numberless || e.code() != ErrorCode.ACCESS_DENIED.number()) {
                    throw unspecified(out, source, status);
                }
                ErrorCode denied = ErrorCode.ACCESS_DENIED;
                throw new Refused(out.error(null, denied.number(), denied.text(), source), status);
            }
        }
    }

    private static DbdRequest.Builder withCommit(DbdRequest.Builder r, boolean commit) {
        switch (r.getBodyCase()) {
            case ADD_ACCOUNTS -> r.getAddAccountsBuilder().setCommit(commit);
            case ADD_USERS -> r.getAddUsersBuilder().setCommit(commit);
            case ADD_CLUSTERS -> r.getAddClustersBuilder().setCommit(commit);
            case MODIFY_ASSOC -> r.getModifyAssocBuilder().setCommit(commit);
            case ADD_QOS -> r.getAddQosBuilder().setCommit(commit);
            case MODIFY_QOS -> r.getModifyQosBuilder().setCommit(commit);
            default -> throw new IllegalStateException("not a change: " + r.getBodyCase());
        }
        return r;
    }

    /** The body's list under {@code field}; none is 22.05's "Unable to resolve path", with status 200. */
    static List<JsonNode> list(Optional<JsonNode> body, String field, DbEnvelope38 out) throws Refused {
        return list(body, field, out, 200);
    }

    static List<JsonNode> list(Optional<JsonNode> body, String field, DbEnvelope38 out, int status) throws Refused {
        JsonNode list = body.map(b -> b.path(field)).orElse(DbEnvelope38.F.missingNode());
        if (!list.isArray()) {
            RestErrors missing = RestErrors.DATA_PATH_NOT_FOUND;
            throw new Refused(out.error("Query parameter not found", missing.number(), missing.text(), field), status);
        }
        List<JsonNode> items = new ArrayList<>();
        list.forEach(items::add);
        return items;
    }

    /** Which of the names wanted exist already (accounts in lower case, as sluice-dbd keeps them). */
    private static Set<String> names(AccountingSession dbd, AssocEntity entity, List<JsonNode> wanted, DbEnvelope38 out)
            throws Refused {
        ListAssocRequest.Builder req = ListAssocRequest.newBuilder().setEntity(entity);
        wanted.stream().map(w -> text(w, "name")).filter(n -> !n.isEmpty()).forEach(req::addNames);
        try {
            var listed = dbd.call(DbdRequest.newBuilder().setListAssoc(req)).getListed();
            return entity == AssocEntity.ACCOUNTS
                    ? listed.getAccountsList().stream()
                            .map(AccountEntry::getName)
                            .collect(Collectors.toSet())
                    : listed.getUsersList().stream().map(UserEntry::getName).collect(Collectors.toSet());
        } catch (AccountingException e) {
            ErrorCode db = ErrorCode.DB_CONNECTION;
            String source = entity == AssocEntity.ACCOUNTS ? "slurmdb_accounts_get" : "slurmdb_users_get";
            throw new Refused(out.error(null, db.number(), db.text(), source), 500);
        }
    }

    /**
     * A field Sluice does not apply here holding a value (a limit, a coordinator, a flag): the
     * request is refused, naming it, rather than half applied.
     */
    static void blank(JsonNode o, Set<String> applied, String source, DbEnvelope38 out, int status) throws Refused {
        if (!o.isObject()) {
            throw unspecified(out, source, status);
        }
        for (var fields = o.fields(); fields.hasNext(); ) {
            var f = fields.next();
            if (!applied.contains(f.getKey()) && !empty(f.getValue())) {
                out.error(
                        "sluice-restd does not apply field '" + f.getKey() + "' here",
                        UNSPECIFIED,
                        UNSPECIFIED_TEXT,
                        source);
                throw new Refused(out, status);
            }
        }
    }

    private static boolean empty(JsonNode v) {
        if (v.isNull() || v.isMissingNode() || (v.isTextual() && v.asText().isEmpty())) {
            return true;
        }
        if (v.isContainerNode()) {
            for (JsonNode child : v) {
                if (!empty(child)) {
                    return false;
                }
            }
            return true;
        }
        return false;
    }

    static Refused unspecified(DbEnvelope38 out, String source, int status) {
        return new Refused(out.error(null, UNSPECIFIED, UNSPECIFIED_TEXT, source), status);
    }

    static String text(JsonNode o, String field) {
        JsonNode v = o.path(field);
        return v.isTextual() ? v.asText().strip() : "";
    }

    private static Optional<String> optional(JsonNode o, String field) {
        JsonNode v = o.path(field);
        return v.isTextual() ? Optional.of(v.asText()) : Optional.empty();
    }
}
