package dev.sluice.restd.dbv0038;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.cli.command.sacct.AccountingClient.AccountingException;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.protocol.v1.AddUsersRequest;
import dev.sluice.protocol.v1.AssocEntity;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.DeleteAssocRequest;
import dev.sluice.protocol.v1.ListWckeysRequest;
import dev.sluice.protocol.v1.WckeyEntry;
import dev.sluice.restd.controller.AccountingSession;
import dev.sluice.restd.http.Reply;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * dbv0.0.38's wckey writes, as slurmrestd 22.05 answers them (compat 205, 219): {@code POST
 * wckeys} gives each named user the wckey on its cluster, as {@code sacctmgr add user ...
 * wckey=} does (the {@code DEFAULT} flag makes it the user's default; a user without one takes
 * it anyway), and {@code DELETE wckey/{name}} takes that wckey from every user who has it, as
 * {@code sacctmgr delete user ... wckey=} does. Both are operators' (2002 for anyone else).
 */
final class Wckeys38 {
    static final String ADD = "slurmdb_wckeys_add";
    private static final String REMOVE = "slurmdb_wckeys_remove";

    private Wckeys38() {}

    /** {@code POST wckeys}: added and committed, or nothing. */
    static Reply post(AccountingSession dbd, DbEnvelope38 out, Optional<JsonNode> body, boolean operator) {
        try {
            return Posts38.apply(dbd, changes(out, body, operator), out, ADD, 500, false);
        } catch (Posts38.Refused r) {
            return r.out.reply(r.status);
        }
    }

    /**
     * What {@code POST wckeys} (or the wckeys of {@code POST config}) asks of sluice-dbd: one
     * addition per wckey. 22.05's parser requires {@code id} (any number: the database numbers
     * wckeys itself), {@code name}, {@code cluster} and {@code user}; a wckey without them is
     * noted and fails the request with -1 (a plain user's with 2002), adding nothing.
     */
    static List<DbdRequest.Builder> changes(DbEnvelope38 out, Optional<JsonNode> body, boolean operator)
            throws Posts38.Refused {
        List<JsonNode> wanted = Posts38.list(body, "wckeys", out, 400);
        List<DbdRequest.Builder> changes = new ArrayList<>();
        boolean incomplete = false;
        for (JsonNode w : wanted) {
            for (String field : List.of("cluster", "id", "name", "user")) {
                if (w.path(field).isMissingNode()) {
                    out.parserNote("Missing required field '" + field + "'");
                    incomplete = true;
                }
            }
            String name = Posts38.text(w, "name");
            boolean isDefault = false;
            for (JsonNode flag : w.path("flags")) {
                isDefault |= flag.asText().equals("DEFAULT");
            }
            changes.add(DbdRequest.newBuilder()
                    .setAddUsers(AddUsersRequest.newBuilder()
                            .addNames(Posts38.text(w, "user"))
                            .addClusters(Posts38.text(w, "cluster"))
                            .addWckeys(name)
                            .setDefaultWckey(isDefault ? name : "")));
        }
        if (incomplete) {
            if (!operator) {
                ErrorCode denied = ErrorCode.ACCESS_DENIED;
                throw new Posts38.Refused(out.error(null, denied.number(), denied.text(), ADD), 500);
            }
            throw Posts38.unspecified(out, ADD, 500);
        }
        return changes;
    }

    /**
     * {@code DELETE wckey/{name}}: every user's wckey of that name, listed in sacctmgr's words
     * under {@code deleted_wckeys}; none there is 9003 with status 500.
     */
    static Reply delete(AccountingSession dbd, DbEnvelope38 out, String name) {
        var deleted = out.body().putArray("deleted_wckeys");
        try {
            List<WckeyEntry> found = dbd.call(DbdRequest.newBuilder()
                            .setListWckeys(ListWckeysRequest.newBuilder().addNames(name)))
                    .getListedWckeys()
                    .getWckeysList();
            Set<String> users = new LinkedHashSet<>();
            found.forEach(w -> users.add(w.getUser()));
            if (users.isEmpty()) {
                return out.nothingFound(REMOVE).reply(500);
            }
            List<WckeyEntry> removed = dbd.call(DbdRequest.newBuilder()
                            .setDeleteAssoc(DeleteAssocRequest.newBuilder()
                                    .setEntity(AssocEntity.USERS)
                                    .addAllNames(users)
                                    .addWckeys(name)
                                    .setCommit(true)))
                    .getDeleted()
                    .getWckeysList();
            for (WckeyEntry w : removed) {
                deleted.add(String.format("C = %-10s W = %-20s U = %-9s", w.getCluster(), w.getName(), w.getUser()));
            }
            return out.reply(200);
        } catch (AccountingException e) {
            ErrorCode code = ErrorCode.fromNumber(e.code());
            return out.error(null, e.code(), code.number() == e.code() ? code.text() : Posts38.UNSPECIFIED_TEXT, REMOVE)
                    .reply(500);
        }
    }
}
