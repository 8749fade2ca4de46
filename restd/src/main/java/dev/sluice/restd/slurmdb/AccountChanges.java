package dev.sluice.restd.slurmdb;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.cli.command.sacct.AccountingClient.AccountingException;
import dev.sluice.protocol.v1.AddAccountsRequest;
import dev.sluice.protocol.v1.AssocEntity;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.ModifyAssocRequest;
import dev.sluice.restd.controller.AccountingSession;
import dev.sluice.restd.http.Envelope;
import dev.sluice.restd.http.Reply;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code POST /slurmdb/vX/accounts}: slurmrestd's "add or update" of accounts. An account that
 * exists gets the description and organization given; a new one is added as {@code sacctmgr add
 * account} adds it (under root, on every cluster the database knows; only v0.0.38's POST, as
 * slurmrestd 22.05 does, adds an account without association: dbv0038.Posts38). Associations in
 * the body are ignored with slurmrestd's warning;
 * coordinators, which slurmrestd adds, are ignored with a warning too, as sluice-dbd keeps none.
 * The whole body is read before the daemon is asked, every change is first tried without
 * committing, and only when none is refused are they committed: a refused request (a plain
 * user's, 2002 from the daemon) changes nothing. Any other field holding a value is refused by
 * name. {@code DELETE account/{name}} deletes as {@code sacctmgr delete account} does.
 */
final class AccountChanges {
    private record Wanted(String name, Optional<String> description, Optional<String> organization) {}

    /** What an account of the body may set; the others hold what the daemon keeps or lists. */
    private static final Set<String> APPLIED =
            Set.of("name", "description", "organization", "associations", "coordinators");

    private AccountChanges() {}

    static Reply add(AccountingSession dbd, Envelope out, Optional<JsonNode> body)
            throws AccountingException, DbWrites.BadBody {
        List<JsonNode> accounts = DbWrites.list(body, "accounts");
        if (accounts.isEmpty()) {
            throw new DbWrites.BadBody("accounts must be a list of accounts");
        }
        DbWrites.tryThenCommit(dbd, changes(dbd, out, accounts));
        return out.reply(200);
    }

    /** What adding or updating {@code accounts} asks of sluice-dbd (also a configuration's accounts). */
    static List<DbdRequest.Builder> changes(AccountingSession dbd, Envelope out, List<JsonNode> accounts)
            throws AccountingException, DbWrites.BadBody {
        List<Wanted> wanted = read(accounts, out);
        if (wanted.isEmpty()) {
            return List.of();
        }
        Set<String> existing = DbWrites.existing(
                dbd, AssocEntity.ACCOUNTS, wanted.stream().map(Wanted::name).toList());
        return changes(wanted, existing);
    }

    /**
     * {@code DELETE account/{name}}: as {@code sacctmgr delete account}, committed at once (the
     * daemon refuses a plain user, 2002, and deletes nothing then); the accounts removed listed,
     * none found a warning.
     */
    static Reply delete(AccountingSession dbd, Envelope out, String name) throws AccountingException {
        List<String> gone = DbWrites.deleteNamed(dbd, out, AssocEntity.ACCOUNTS, name, "slurmdb_accounts_remove");
        var removed = out.body().putArray("removed_accounts");
        gone.forEach(removed::add);
        return out.reply(200);
    }

    private static List<DbdRequest.Builder> changes(List<Wanted> wanted, Set<String> existing) {
        List<DbdRequest.Builder> out = new ArrayList<>();
        for (Wanted w : wanted) {
            if (existing.contains(w.name())) {
                if (w.description().isEmpty() && w.organization().isEmpty()) {
                    continue;
                }
                ModifyAssocRequest.Builder m = ModifyAssocRequest.newBuilder()
                        .setEntity(AssocEntity.ACCOUNTS)
                        .addNames(w.name());
                w.description().ifPresent(m::setDescription);
                w.organization().ifPresent(m::setOrganization);
                out.add(DbdRequest.newBuilder().setModifyAssoc(m));
            } else {
                AddAccountsRequest.Builder a = AddAccountsRequest.newBuilder().addNames(w.name());
                w.description().ifPresent(a::setDescription);
                w.organization().ifPresent(a::setOrganization);
                out.add(DbdRequest.newBuilder().setAddAccounts(a));
            }
        }
        return out;
    }

    private static List<Wanted> read(List<JsonNode> accounts, Envelope out) throws DbWrites.BadBody {
        List<Wanted> wanted = new ArrayList<>();
        for (JsonNode a : accounts) {
            DbWrites.onlyApplied(a, APPLIED, "accounts/");
            String name = text(a, "name").orElse("").strip();
            if (name.isEmpty()) {
                throw new DbWrites.BadBody("an account needs a name");
            }
            if (!a.path("associations").isMissingNode()
                    && !a.path("associations").isEmpty()) {
                out.warning(
                        "Account associations ignored. They must be set via the associations end point.", "accounts");
            }
            if (!a.path("coordinators").isMissingNode()
                    && !a.path("coordinators").isEmpty()) {
                out.warning("Account coordinators ignored: sluice-dbd keeps no coordinators.", "accounts");
            }
            wanted.add(new Wanted(name, text(a, "description"), text(a, "organization")));
        }
        return wanted;
    }

    private static Optional<String> text(JsonNode o, String field) throws DbWrites.BadBody {
        return DbWrites.text(o, field).map(v -> o.path(field).asText());
    }
}
