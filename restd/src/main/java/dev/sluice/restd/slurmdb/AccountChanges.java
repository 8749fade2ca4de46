package dev.sluice.restd.slurmdb;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.cli.command.sacct.AccountingClient.AccountingException;
import dev.sluice.protocol.v1.AccountEntry;
import dev.sluice.protocol.v1.AddAccountsRequest;
import dev.sluice.protocol.v1.AssocEntity;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.ListAssocRequest;
import dev.sluice.protocol.v1.ModifyAssocRequest;
import dev.sluice.restd.controller.AccountingSession;
import dev.sluice.restd.http.Envelope;
import dev.sluice.restd.http.Reply;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@code POST /slurmdb/vX/accounts}: slurmrestd's "add or update" of accounts. An account that
 * exists gets the description and organization given; a new one is added as {@code sacctmgr add
 * account} adds it (under root, on every cluster the database knows; only v0.0.38's POST, as
 * slurmrestd 22.05 does, adds an account without association: dbv0038.Posts38). Associations in the body are ignored with slurmrestd's warning;
 * coordinators, which slurmrestd adds, are ignored with a warning too, as sluice-dbd keeps none.
 * The whole body is read before the daemon is asked, every change is first tried without
 * committing, and only when none is refused are they committed: a refused request (a plain
 * user's, 2002 from the daemon) changes nothing.
 */
final class AccountChanges {
    /** A body that is not {@code {"accounts": [{"name": ...}, ...]}}. */
    static final class BadBody extends Exception {
        BadBody(String message) {
            super(message);
        }
    }

    private record Wanted(String name, Optional<String> description, Optional<String> organization) {}

    private AccountChanges() {}

    static Reply add(AccountingSession dbd, Envelope out, Optional<JsonNode> body) throws AccountingException, BadBody {
        List<Wanted> wanted = read(body, out);
        Set<String> existing = dbd
                .call(DbdRequest.newBuilder()
                        .setListAssoc(ListAssocRequest.newBuilder()
                                .setEntity(AssocEntity.ACCOUNTS)
                                .addAllNames(wanted.stream().map(Wanted::name).toList())))
                .getListed()
                .getAccountsList()
                .stream()
                .map(AccountEntry::getName)
                .collect(Collectors.toSet());
        List<DbdRequest.Builder> preview = changes(wanted, existing, false);
        for (DbdRequest.Builder change : preview) {
            dbd.call(change);
        }
        for (DbdRequest.Builder change : changes(wanted, existing, true)) {
            dbd.call(change);
        }
        return out.reply(200);
    }

    private static List<DbdRequest.Builder> changes(List<Wanted> wanted, Set<String> existing, boolean commit) {
        List<DbdRequest.Builder> out = new ArrayList<>();
        for (Wanted w : wanted) {
            if (existing.contains(w.name())) {
                if (w.description().isEmpty() && w.organization().isEmpty()) {
                    continue;
                }
                ModifyAssocRequest.Builder m = ModifyAssocRequest.newBuilder()
                        .setEntity(AssocEntity.ACCOUNTS)
                        .addNames(w.name())
                        .setCommit(commit);
                w.description().ifPresent(m::setDescription);
                w.organization().ifPresent(m::setOrganization);
                out.add(DbdRequest.newBuilder().setModifyAssoc(m));
            } else {
                AddAccountsRequest.Builder a =
                        AddAccountsRequest.newBuilder().addNames(w.name()).setCommit(commit);
                w.description().ifPresent(a::setDescription);
                w.organization().ifPresent(a::setOrganization);
                out.add(DbdRequest.newBuilder().setAddAccounts(a));
            }
        }
        return out;
    }

    private static List<Wanted> read(Optional<JsonNode> body, Envelope out) throws BadBody {
        JsonNode accounts = body.map(b -> b.path("accounts")).orElseThrow(() -> new BadBody("no accounts given"));
        if (!accounts.isArray() || accounts.isEmpty()) {
            throw new BadBody("accounts must be a list of accounts");
        }
        List<Wanted> wanted = new ArrayList<>();
        for (JsonNode a : accounts) {
            if (!a.isObject()) {
                throw new BadBody("each account must be an object");
            }
            String name = text(a, "name").orElse("").strip();
            if (name.isEmpty()) {
                throw new BadBody("an account needs a name");
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

    private static Optional<String> text(JsonNode o, String field) throws BadBody {
        JsonNode v = o.path(field);
        if (v.isMissingNode() || v.isNull()) {
            return Optional.empty();
        }
        if (!v.isTextual()) {
            throw new BadBody(field + " must be a string");
        }
        return Optional.of(v.asText());
    }
}
