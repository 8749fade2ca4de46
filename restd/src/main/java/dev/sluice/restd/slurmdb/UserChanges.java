package dev.sluice.restd.slurmdb;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.cli.command.sacct.AccountingClient.AccountingException;
import dev.sluice.common.slurm.AdminLevel;
import dev.sluice.protocol.v1.AddResult;
import dev.sluice.protocol.v1.AddUsersRequest;
import dev.sluice.protocol.v1.AssocEntity;
import dev.sluice.protocol.v1.AssociationEntry;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.ModifyAssocRequest;
import dev.sluice.restd.controller.AccountingSession;
import dev.sluice.restd.http.Envelope;
import dev.sluice.restd.http.Reply;
import dev.sluice.restd.http.RestErrors;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Users of the newer data parsers, as slurmrestd changes them. {@code POST users} adds a user
 * alone (no association: those come through {@code POST associations} or {@code
 * users_association}) or changes one that exists (administrator level, default account);
 * associations and coordinators in the body are ignored with slurmrestd's warnings, the DELETED
 * flag too. {@code POST users_association} adds users with associations, as {@code sacctmgr add
 * user} does, and answers sacctmgr's report. {@code DELETE user/{name}} deletes as {@code
 * sacctmgr delete user}. What sluice-dbd does not keep (renames, wckeys in a user, a new user's
 * default account without an association, a user's default QOS) is refused by name.
 */
final class UserChanges {
    private static final Set<String> APPLIED =
            Set.of("name", "administrator_level", "associations", "coordinators", "flags", "default", "old_name");

    private UserChanges() {}

    static Reply add(AccountingSession dbd, Envelope out, Optional<JsonNode> body)
            throws AccountingException, DbWrites.BadBody {
        DbWrites.tryThenCommit(dbd, changes(dbd, out, DbWrites.list(body, "users")));
        return out.reply(200);
    }

    /** What adding or updating {@code users} asks of sluice-dbd (also a configuration's users). */
    static List<DbdRequest.Builder> changes(AccountingSession dbd, Envelope out, List<JsonNode> users)
            throws AccountingException, DbWrites.BadBody {
        if (users.isEmpty()) {
            return List.of();
        }
        List<Wanted> wanted = new ArrayList<>();
        for (JsonNode u : users) {
            wanted.add(read(u, out));
        }
        Set<String> existing = DbWrites.existing(
                dbd, AssocEntity.USERS, wanted.stream().map(Wanted::name).toList());
        List<DbdRequest.Builder> changes = new ArrayList<>();
        for (Wanted w : wanted) {
            boolean exists = existing.contains(w.name());
            if (!exists && w.account().isPresent()) {
                throw new DbWrites.BadBody("sluice-restd does not apply field 'users/default/account' to a new user:"
                        + " sluice-dbd keeps a default account only with its association (POST users_association)");
            }
            if (!exists) {
                changes.add(DbdRequest.newBuilder()
                        .setAddUsers(AddUsersRequest.newBuilder()
                                .addNames(w.name())
                                .setAdminLevel(w.level().orElse(AdminLevel.NONE.text()))
                                .setWithoutAssociations(true)));
            } else if (w.level().isPresent() || w.account().isPresent()) {
                ModifyAssocRequest.Builder m = ModifyAssocRequest.newBuilder()
                        .setEntity(AssocEntity.USERS)
                        .addNames(w.name());
                w.level().ifPresent(m::setAdminLevel);
                w.account().ifPresent(m::setDefaultAccount);
                changes.add(DbdRequest.newBuilder().setModifyAssoc(m));
            }
        }
        return changes;
    }

    /** One user of the body: its name, the level and default account it sets. */
    private record Wanted(String name, Optional<String> level, Optional<String> account) {}

    private static Wanted read(JsonNode u, Envelope out) throws DbWrites.BadBody {
        DbWrites.onlyApplied(u, APPLIED, "users/");
        String name = DbWrites.text(u, "name").orElse("");
        if (name.isEmpty()) {
            throw new DbWrites.BadBody("a user needs a name");
        }
        if (!DbWrites.text(u, "old_name").orElse("").isEmpty()) {
            throw new DbWrites.BadBody("sluice-restd does not apply field 'users/old_name' (renaming a user)");
        }
        Optional<String> level = adminLevel(DbWrites.strings(u, "administrator_level"));
        JsonNode defaults = u.path("default");
        DbWrites.onlyApplied(defaults, Set.of("account"), "users/default/");
        Optional<String> account = DbWrites.text(defaults, "account").filter(a -> !a.isEmpty());
        warnIgnored(u, name, out);
        return new Wanted(name, level, account);
    }

    private static void warnIgnored(JsonNode u, String name, Envelope out) throws DbWrites.BadBody {
        if (!DbWrites.empty(u.path("associations"))) {
            out.warning(
                    "User " + name + " associations list ignored. They must be set via the associations end point.",
                    "_foreach_update_user");
        }
        if (!DbWrites.empty(u.path("coordinators"))) {
            out.warning(
                    "User " + name + " coordinators list ignored. They must be set via the coordinators or accounts"
                            + " end point.",
                    "_foreach_update_user");
        }
        for (String flag : DbWrites.strings(u, "flags")) {
            switch (flag) {
                case "DELETED" -> out.warning("Ignoring request to set flag: DELETED", "_foreach_update_user");
                case "NONE" -> {}
                default -> throw new DbWrites.BadBody("unknown user flag " + flag);
            }
        }
    }

    /** The level asked ({@code ["Operator"]}); {@code Not Set} or none: none. */
    private static Optional<String> adminLevel(List<String> given) throws DbWrites.BadBody {
        Optional<String> level = Optional.empty();
        for (String l : given) {
            if (l.equals("Not Set")) {
                continue;
            }
            level = Optional.of(AdminLevel.of(l)
                    .orElseThrow(() -> new DbWrites.BadBody("unknown administrator_level " + l))
                    .text());
        }
        return level;
    }

    /**
     * {@code POST users_association}: the users with associations under the accounts (or the
     * default account) on the clusters given, and their wckeys, with the limits of the
     * condition's {@code association}; tried, then committed. Neither accounts nor wckeys is
     * slurmrestd's 9211.
     */
    static Reply addWithAssociations(AccountingSession dbd, Envelope out, Optional<JsonNode> body)
            throws AccountingException, DbWrites.BadBody {
        out.body().put("added_users", "");
        JsonNode root = body.orElseThrow(() -> new DbWrites.BadBody("no association_condition given"));
        JsonNode cond = root.path("association_condition");
        JsonNode user = root.path("user");
        if (!cond.isObject() || !user.isObject()) {
            throw new DbWrites.BadBody("association_condition and user are required");
        }
        DbWrites.onlyApplied(root, Set.of("association_condition", "user", "meta", "errors", "warnings"), "");
        DbWrites.onlyApplied(
                cond, Set.of("accounts", "clusters", "users", "wckeys", "association"), "association_condition/");
        DbWrites.onlyApplied(user, Set.of("adminlevel", "defaultaccount", "defaultwckey"), "user/");
        AssocLimits.Read limits = AssocLimits.read(
                cond.path("association"),
                AssocLimits.ADD_COND,
                Set.of(),
                "association_condition/association/",
                TresLists.known(dbd));
        List<String> users = DbWrites.strings(cond, "users");
        if (users.isEmpty()) {
            throw new DbWrites.BadBody("association_condition/users names no user");
        }
        Optional<String> defaultAccount = DbWrites.text(user, "defaultaccount").filter(a -> !a.isEmpty());
        Optional<String> defaultWckey = DbWrites.text(user, "defaultwckey").filter(w -> !w.isEmpty());
        List<String> accounts = DbWrites.strings(cond, "accounts");
        if (accounts.isEmpty() && defaultAccount.isPresent()) {
            accounts = List.of(defaultAccount.get());
        }
        List<String> wckeys = DbWrites.strings(cond, "wckeys");
        if (wckeys.isEmpty() && defaultWckey.isPresent()) {
            wckeys = List.of(defaultWckey.get());
        }
        if (accounts.isEmpty() && wckeys.isEmpty()) {
            RestErrors none = RestErrors.AMBIGUOUS_QUERY;
            out.error(
                    none.number(), none.text(), "Need name of account(s) or wckey(s) to add", "_add_users_association");
            return out.reply(none.httpStatus());
        }
        AddUsersRequest.Builder add = AddUsersRequest.newBuilder()
                .addAllNames(users)
                .addAllAccounts(accounts)
                .addAllClusters(DbWrites.strings(cond, "clusters"))
                .addAllWckeys(wckeys)
                .setAdminLevel(adminLevel(DbWrites.strings(user, "adminlevel")).orElse(AdminLevel.NONE.text()))
                .setLimits(limits.limits());
        defaultAccount.ifPresent(add::setDefaultAccount);
        defaultWckey.ifPresent(add::setDefaultWckey);
        dbd.call(DbdRequest.newBuilder().setAddUsers(add.clone().setCommit(false)));
        AddResult added = dbd.call(DbdRequest.newBuilder().setAddUsers(add.setCommit(true)))
                .getAdded();
        out.body().put("added_users", report(added));
        return out.reply(200);
    }

    /** sacctmgr's report of what it added: the new users, then the associations. */
    private static String report(AddResult added) {
        StringBuilder text = new StringBuilder();
        if (added.getAddedCount() > 0) {
            text.append(" Adding User(s)\n");
            added.getAddedList().forEach(u -> text.append("  ").append(u).append('\n'));
        }
        if (added.getAssociationsCount() > 0) {
            text.append(" Associations =\n");
            for (AssociationEntry a : added.getAssociationsList()) {
                text.append(
                        String.format("  U = %-9s A = %-10s C = %-10s\n", a.getUser(), a.getAccount(), a.getCluster()));
            }
        }
        return text.toString();
    }

    /** {@code DELETE user/{name}}: committed at once; a plain user is refused (2002), nothing found a warning. */
    static Reply delete(AccountingSession dbd, Envelope out, String name) throws AccountingException {
        DbWrites.deleteNamed(dbd, out, AssocEntity.USERS, name, "slurmdb_users_remove");
        return out.reply(200);
    }
}
