package dev.sluice.restd.dbv0038;

import static dev.sluice.restd.dbv0038.Posts38.apply;
import static dev.sluice.restd.dbv0038.Posts38.blank;
import static dev.sluice.restd.dbv0038.Posts38.list;
import static dev.sluice.restd.dbv0038.Posts38.optional;
import static dev.sluice.restd.dbv0038.Posts38.text;
import static dev.sluice.restd.dbv0038.Posts38.unspecified;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.cli.command.sacct.AccountingClient.AccountingException;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.slurm.AdminLevel;
import dev.sluice.protocol.v1.AddAccountsRequest;
import dev.sluice.protocol.v1.AddUsersRequest;
import dev.sluice.protocol.v1.AssocEntity;
import dev.sluice.protocol.v1.AssociationLimits;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.ModifyAssocRequest;
import dev.sluice.restd.controller.AccountingSession;
import dev.sluice.restd.dbv0038.Posts38.Refused;
import dev.sluice.restd.http.Reply;
import dev.sluice.restd.http.RestErrors;
import dev.sluice.restd.slurmdb.DbWrites;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * dbv0.0.38's "add or update" of accounts, users and associations, as slurmrestd 22.05 does
 * them (compat 158, 159): an account or a user is added alone, without any association (those
 * come through {@code POST associations}), or changed when it exists; read and committed as
 * {@link Posts38} does every such request.
 */
final class AssocPosts38 {
    private AssocPosts38() {}

    /**
     * {@code POST accounts} or {@code POST users}: each entry of the body's list is added, without
     * associations, when its name is new, else changed. They differ in the list's field, the fields
     * applied (any other holding a value is refused), whether a missing name is noted, and how an
     * entry is read into the change for its name.
     */
    record AddOrChange(
            String field,
            AssocEntity entity,
            String source,
            Set<String> applied,
            boolean notesMissingName,
            Reader reader) {
        Reply reply(AccountingSession dbd, DbEnvelope38 out, Optional<JsonNode> body) {
            try {
                return apply(dbd, changes(dbd, out, body), out, source, 500, false);
            } catch (Refused r) {
                return r.out.reply(r.status);
            }
        }

        /** What the request asks of sluice-dbd, read whole before anything is asked. */
        List<DbdRequest.Builder> changes(AccountingSession dbd, DbEnvelope38 out, Optional<JsonNode> body)
                throws Refused {
            List<JsonNode> wanted = list(body, field, out);
            List<DbdRequest.Builder> changes = new ArrayList<>();
            Set<String> existing = names(dbd, entity, wanted, out);
            for (JsonNode entry : wanted) {
                String name = text(entry, "name");
                blank(entry, applied, source, out, 500);
                Change change = reader.read(entry, out);
                if (name.isEmpty()) {
                    if (notesMissingName) {
                        out.parserNote("Missing required field 'name'");
                    }
                    throw unspecified(out, source, 500);
                }
                change.of(name, existing.contains(name)).ifPresent(changes::add);
            }
            return changes;
        }
    }

    /** Reads an entry's fields, refusing a bad one before its name is checked. */
    @FunctionalInterface
    interface Reader {
        Change read(JsonNode entry, DbEnvelope38 out) throws Refused;
    }

    /** The change for a name that exists already or is new; empty: nothing to change. */
    @FunctionalInterface
    interface Change {
        Optional<DbdRequest.Builder> of(String name, boolean exists);
    }

    static final AddOrChange ACCOUNTS = new AddOrChange(
            "accounts",
            AssocEntity.ACCOUNTS,
            "slurmdb_accounts_add",
            Set.of("name", "description", "organization"),
            false,
            AssocPosts38::account);

    // 22.05 reads a default account and then adds the user without it (no association).
    static final AddOrChange USERS = new AddOrChange(
            "users",
            AssocEntity.USERS,
            "slurmdb_users_add",
            Set.of("name", "administrator_level", "default"),
            true,
            AssocPosts38::user);

    private static Change account(JsonNode a, DbEnvelope38 out) {
        Optional<String> description = optional(a, "description");
        Optional<String> organization = optional(a, "organization");
        return (name, exists) -> {
            if (exists) {
                ModifyAssocRequest.Builder m = ModifyAssocRequest.newBuilder()
                        .setEntity(AssocEntity.ACCOUNTS)
                        .addNames(name);
                description.ifPresent(m::setDescription);
                organization.ifPresent(m::setOrganization);
                return Optional.of(DbdRequest.newBuilder().setModifyAssoc(m));
            }
            AddAccountsRequest.Builder add =
                    AddAccountsRequest.newBuilder().addNames(name).setWithoutAssociations(true);
            description.ifPresent(add::setDescription);
            organization.ifPresent(add::setOrganization);
            return Optional.of(DbdRequest.newBuilder().setAddAccounts(add));
        };
    }

    private static Change user(JsonNode u, DbEnvelope38 out) throws Refused {
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
        return (name, exists) -> {
            if (!exists) {
                return Optional.of(DbdRequest.newBuilder()
                        .setAddUsers(AddUsersRequest.newBuilder()
                                .addNames(name)
                                .setAdminLevel(level.orElse(AdminLevel.NONE.text()))
                                .setWithoutAssociations(true)));
            }
            return level.map(l -> DbdRequest.newBuilder()
                    .setModifyAssoc(ModifyAssocRequest.newBuilder()
                            .setEntity(AssocEntity.USERS)
                            .addNames(name)
                            .setAdminLevel(l)));
        };
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

    /** Which of the names wanted exist already (accounts in lower case, as sluice-dbd keeps them). */
    private static Set<String> names(AccountingSession dbd, AssocEntity entity, List<JsonNode> wanted, DbEnvelope38 out)
            throws Refused {
        try {
            return DbWrites.existing(
                    dbd,
                    entity,
                    wanted.stream()
                            .map(w -> text(w, "name"))
                            .filter(n -> !n.isEmpty())
                            .toList());
        } catch (AccountingException e) {
            ErrorCode db = ErrorCode.DB_CONNECTION;
            String source = entity == AssocEntity.ACCOUNTS ? "slurmdb_accounts_get" : "slurmdb_users_get";
            throw new Refused(out.error(null, db.number(), db.text(), source), 500);
        }
    }
}
