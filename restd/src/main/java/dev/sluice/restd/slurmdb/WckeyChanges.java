package dev.sluice.restd.slurmdb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.cli.command.sacct.AccountingClient.AccountingException;
import dev.sluice.protocol.v1.AddUsersRequest;
import dev.sluice.protocol.v1.AssocEntity;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.DeleteAssocRequest;
import dev.sluice.protocol.v1.ListWckeysRequest;
import dev.sluice.protocol.v1.WckeyEntry;
import dev.sluice.restd.controller.AccountingSession;
import dev.sluice.restd.http.Envelope;
import dev.sluice.restd.http.Reply;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /slurmdb/vX/wckeys} and {@code wckey/{id}} of the newer data parsers: the users' wckeys
 * as {@code sacctmgr show wckey} lists them (listing them is an operator's right in the daemon,
 * which refuses anyone else with 2002), added as {@code sacctmgr add user ... wckey=} adds them
 * and deleted by id as {@code sacctmgr delete user ... wckey=} deletes them. Additions are tried
 * whole without committing first, so a refused request changes nothing.
 */
final class WckeyChanges {
    private WckeyChanges() {}

    /** {@code GET wckeys} (cluster, id, name, user and with_deleted narrow it) or one by id. */
    static Reply list(AccountingSession dbd, Envelope out, Map<String, String> q, String id)
            throws AccountingException {
        ListWckeysRequest.Builder req = ListWckeysRequest.newBuilder();
        QueryParams.list(q, "cluster").forEach(req::addClusters);
        QueryParams.list(q, "name").forEach(req::addNames);
        QueryParams.list(q, "user").forEach(req::addUsers);
        for (String each : id.isEmpty() ? QueryParams.list(q, "id") : List.of(id)) {
            req.addIds(number(each));
        }
        req.setWithDeleted("true".equalsIgnoreCase(q.get("with_deleted")));
        ArrayNode list = out.body().putArray("wckeys");
        for (WckeyEntry w : dbd.call(DbdRequest.newBuilder().setListWckeys(req))
                .getListedWckeys()
                .getWckeysList()) {
            ObjectNode o = list.addObject();
            o.putArray("accounting");
            o.put("cluster", w.getCluster())
                    .put("id", w.getId())
                    .put("name", w.getName())
                    .put("user", w.getUser());
            ArrayNode flags = o.putArray("flags");
            if (w.getDeleted()) {
                flags.add("DELETED");
            }
        }
        return out.reply(200);
    }

    /** {@code POST wckeys}: each wckey (cluster, name, user) given to its user. */
    static Reply add(AccountingSession dbd, Envelope out, Optional<JsonNode> body)
            throws AccountingException, DbWrites.BadBody {
        DbWrites.tryThenCommit(dbd, changes(DbWrites.list(body, "wckeys")));
        return out.reply(200);
    }

    /** What giving users {@code wckeys} asks of sluice-dbd (also a configuration's wckeys). */
    static List<DbdRequest.Builder> changes(List<JsonNode> wckeys) throws DbWrites.BadBody {
        List<DbdRequest.Builder> changes = new ArrayList<>();
        for (JsonNode w : wckeys) {
            DbWrites.onlyApplied(w, APPLIED, "wckeys/");
            String cluster = DbWrites.text(w, "cluster").orElse("");
            String name = DbWrites.text(w, "name").orElse("");
            String user = DbWrites.text(w, "user").orElse("");
            if (cluster.isEmpty() || name.isEmpty() || user.isEmpty()) {
                throw new DbWrites.BadBody("a wckey needs its cluster, name and user");
            }
            changes.add(DbdRequest.newBuilder()
                    .setAddUsers(AddUsersRequest.newBuilder()
                            .addNames(user)
                            .addClusters(cluster)
                            .addWckeys(name)));
        }
        return changes;
    }

    /** What a wckey of the body may set: its id, usage and flags are the daemon's. */
    private static final java.util.Set<String> APPLIED =
            java.util.Set.of("cluster", "name", "user", "id", "accounting");

    /**
     * {@code DELETE wckey/{id}}: that user's wckey of that name, listed in sacctmgr's words; an
     * id no wckey has deletes nothing, with a warning.
     */
    static Reply delete(AccountingSession dbd, Envelope out, String id) throws AccountingException {
        ArrayNode deleted = out.body().putArray("deleted_wckeys");
        List<WckeyEntry> found = dbd.call(DbdRequest.newBuilder()
                        .setListWckeys(ListWckeysRequest.newBuilder().addIds(number(id))))
                .getListedWckeys()
                .getWckeysList();
        if (found.isEmpty()) {
            out.warning("slurmdb_wckeys_remove found nothing", "slurmdbd");
            return out.reply(200);
        }
        WckeyEntry w = found.get(0);
        for (WckeyEntry gone : dbd.call(DbdRequest.newBuilder()
                        .setDeleteAssoc(DeleteAssocRequest.newBuilder()
                                .setEntity(AssocEntity.USERS)
                                .addNames(w.getUser())
                                .addWckeys(w.getName())
                                .setCommit(true)))
                .getDeleted()
                .getWckeysList()) {
            deleted.add(
                    String.format("C = %-10s W = %-20s U = %-9s", gone.getCluster(), gone.getName(), gone.getUser()));
        }
        return out.reply(200);
    }

    private static int number(String id) {
        try {
            return Integer.parseUnsignedInt(id.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("wckey id " + id + " is not a number");
        }
    }
}
