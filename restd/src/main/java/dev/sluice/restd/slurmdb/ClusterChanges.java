package dev.sluice.restd.slurmdb;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.cli.command.sacct.AccountingClient.AccountingException;
import dev.sluice.protocol.v1.AddClusterRequest;
import dev.sluice.protocol.v1.AssocEntity;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.DeleteAssocRequest;
import dev.sluice.restd.controller.AccountingSession;
import dev.sluice.restd.http.Envelope;
import dev.sluice.restd.http.Reply;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code POST clusters} and {@code DELETE cluster/{name}} of the newer data parsers. Each named
 * cluster is added with its root association as {@code sacctmgr add cluster} adds it (one that
 * exists is left as it is), tried before it is committed, so a plain user's request (2002) adds
 * none. What else a cluster record holds (controller, nodes, TRES, RPC version) slurmdbd learns
 * from a registering controller, so a value there is refused by name rather than dropped.
 * sluice-dbd deletes no cluster: a deletion is the daemon's refusal, with nothing deleted.
 */
final class ClusterChanges {
    private ClusterChanges() {}

    static Reply add(AccountingSession dbd, Envelope out, Optional<JsonNode> body)
            throws AccountingException, DbWrites.BadBody {
        DbWrites.tryThenCommit(dbd, changes(DbWrites.list(body, "clusters")));
        return out.reply(200);
    }

    /** What adding {@code clusters} asks of sluice-dbd (also a configuration's clusters). */
    static List<DbdRequest.Builder> changes(List<JsonNode> clusters) throws DbWrites.BadBody {
        if (clusters.isEmpty()) {
            return List.of();
        }
        AddClusterRequest.Builder add = AddClusterRequest.newBuilder();
        for (JsonNode c : clusters) {
            DbWrites.onlyApplied(c, Set.of("name"), "clusters/");
            String name = DbWrites.text(c, "name").orElse("");
            if (name.isEmpty()) {
                throw new DbWrites.BadBody("a cluster needs a name");
            }
            add.addNames(name);
        }
        return List.of(DbdRequest.newBuilder().setAddClusters(add));
    }

    /** Asked of sluice-dbd, which refuses it (an operator too): its error, {@code deleted_clusters} empty. */
    static Reply delete(AccountingSession dbd, Envelope out, String name) throws AccountingException {
        var deleted = out.body().putArray("deleted_clusters");
        dbd.call(DbdRequest.newBuilder()
                        .setDeleteAssoc(DeleteAssocRequest.newBuilder()
                                .setEntity(AssocEntity.CLUSTERS)
                                .addNames(name)
                                .setCommit(true)))
                .getDeleted()
                .getDeletedList()
                .forEach(deleted::add);
        if (deleted.isEmpty()) {
            out.warning("slurmdb_clusters_remove() found nothing", "_delete_cluster");
        }
        return out.reply(200);
    }
}
