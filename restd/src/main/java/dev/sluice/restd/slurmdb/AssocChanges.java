package dev.sluice.restd.slurmdb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.sluice.cli.command.sacct.AccountingClient.AccountingException;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.protocol.v1.AddAccountsRequest;
import dev.sluice.protocol.v1.AddUsersRequest;
import dev.sluice.protocol.v1.AssocEntity;
import dev.sluice.protocol.v1.AssociationEntry;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.DbdResponse;
import dev.sluice.protocol.v1.DeleteAssocRequest;
import dev.sluice.protocol.v1.ListAssocRequest;
import dev.sluice.protocol.v1.ModifyAssocRequest;
import dev.sluice.protocol.v1.TresEntry;
import dev.sluice.restd.controller.AccountingSession;
import dev.sluice.restd.http.Envelope;
import dev.sluice.restd.http.Reply;
import dev.sluice.restd.http.RestErrors;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code POST associations} and {@code DELETE association(s)} of the newer data parsers, as
 * slurmrestd does them: an association that exists (same account, cluster and user) gets the
 * limits given, a new one is added as {@code sacctmgr add account|user} adds it; deletion
 * removes what the query's account, user and cluster pick, {@code association} refusing to
 * remove more than one (9210). sluice-dbd keeps no partitions, deletes an account's own
 * association only with the account and a user's under an account on every cluster at once: a
 * request needing otherwise is refused, changing nothing.
 */
final class AssocChanges {
    /** The fields of an {@code assoc} read besides its limits, or the daemon's (id, usage, lineage). */
    private static final Set<String> OTHERS =
            Set.of("account", "cluster", "user", "partition", "parent_account", "id", "accounting", "lineage");

    /** The query parameters a deletion applies; any other given is refused by name. */
    private static final Set<String> DELETE_BY = Set.of("account", "cluster", "user", "partition");

    private AssocChanges() {}

    static Reply add(AccountingSession dbd, Envelope out, Optional<JsonNode> body, String cluster)
            throws AccountingException, DbWrites.BadBody {
        DbWrites.tryThenCommit(dbd, changes(dbd, DbWrites.list(body, "associations"), cluster));
        return out.reply(200);
    }

    /** What adding or updating {@code associations} asks of sluice-dbd (also a configuration's). */
    static List<DbdRequest.Builder> changes(AccountingSession dbd, List<JsonNode> associations, String cluster)
            throws AccountingException, DbWrites.BadBody {
        if (associations.isEmpty()) {
            return List.of();
        }
        List<TresEntry> tres = TresLists.known(dbd);
        List<DbdRequest.Builder> changes = new ArrayList<>();
        for (JsonNode a : associations) {
            AssocLimits.Read limits = AssocLimits.read(a, AssocLimits.ASSOCIATION, OTHERS, "associations/", tres);
            String account = DbWrites.text(a, "account").orElse("");
            String user = DbWrites.text(a, "user").orElse("");
            String on = DbWrites.text(a, "cluster").filter(c -> !c.isEmpty()).orElse(cluster);
            String parent = DbWrites.text(a, "parent_account").orElse("");
            if (account.isEmpty()) {
                throw new DbWrites.BadBody("an association needs its account");
            }
            if (!DbWrites.text(a, "partition").orElse("").isEmpty()) {
                throw new DbWrites.BadBody("sluice-dbd keeps no associations by partition");
            }
            Optional<AssociationEntry> existing = dbd
                    .call(DbdRequest.newBuilder()
                            .setListAssoc(ListAssocRequest.newBuilder()
                                    .setEntity(AssocEntity.ASSOCIATIONS)
                                    .addAccounts(account)
                                    .addClusters(on)))
                    .getListed()
                    .getAssociationsList()
                    .stream()
                    .filter(e -> e.getUser().equals(user) && e.getCluster().equals(on))
                    .findFirst();
            if (existing.isPresent()) {
                if (!user.isEmpty()
                        || parent.isEmpty()
                        || parent.equals(existing.get().getParentAccount())) {
                    if (!limits.isEmpty()) {
                        changes.add(modify(account, user, on, limits));
                    }
                    continue;
                }
                throw new DbWrites.BadBody(
                        "sluice-restd does not apply field 'associations/parent_account' to an existing association");
            }
            if (user.isEmpty()) {
                changes.add(DbdRequest.newBuilder()
                        .setAddAccounts(AddAccountsRequest.newBuilder()
                                .addNames(account)
                                .setParent(parent)
                                .addClusters(on)
                                .setLimits(limits.limits())));
            } else {
                changes.add(DbdRequest.newBuilder()
                        .setAddUsers(AddUsersRequest.newBuilder()
                                .addNames(user)
                                .addAccounts(account)
                                .addClusters(on)
                                .setLimits(limits.limits())));
            }
        }
        return changes;
    }

    private static DbdRequest.Builder modify(String account, String user, String cluster, AssocLimits.Read limits) {
        ModifyAssocRequest.Builder m = ModifyAssocRequest.newBuilder()
                .addClusters(cluster)
                .setLimits(limits.limits())
                .addAllCleared(limits.cleared());
        if (user.isEmpty()) {
            m.setEntity(AssocEntity.ACCOUNTS).addNames(account);
        } else {
            m.setEntity(AssocEntity.USERS).addNames(user).addAccounts(account);
        }
        return DbdRequest.newBuilder().setModifyAssoc(m);
    }

    /**
     * {@code DELETE associations} ({@code onlyOne}: {@code DELETE association}): the users'
     * associations the query picks, tried and then committed; those removed listed in slurmdbd's
     * words, none found a warning.
     */
    static Reply delete(AccountingSession dbd, Envelope out, Map<String, String> query, String cluster, boolean onlyOne)
            throws AccountingException {
        ArrayNode removed = out.body().putArray("removed_associations");
        for (String given : query.keySet()) {
            if (!DELETE_BY.contains(given) && !query.get(given).isBlank()) {
                throw new IllegalArgumentException("sluice-restd does not delete associations by " + given);
            }
        }
        ListAssocRequest.Builder which = ListAssocRequest.newBuilder().setEntity(AssocEntity.ASSOCIATIONS);
        QueryParams.list(query, "account").forEach(which::addAccounts);
        QueryParams.list(query, "user").forEach(which::addUsers);
        QueryParams.list(query, "cluster").forEach(which::addClusters);
        List<AssociationEntry> picked = QueryParams.list(query, "partition").isEmpty() ? listed(dbd, which) : List.of();
        if (picked.isEmpty()) {
            out.warning("slurmdb_associations_remove() found nothing", "_delete_assoc");
            return out.reply(200);
        }
        if (onlyOne && picked.size() > 1) {
            return ambiguous(out);
        }
        if (picked.stream().anyMatch(a -> a.getUser().isEmpty())) {
            ErrorCode no = ErrorCode.NOT_SUPPORTED;
            out.error(
                    no.number(),
                    no.text(),
                    "sluice-dbd removes an account's own association only with the account (DELETE account/{name})",
                    "_delete_assoc");
            return out.reply(500);
        }
        // A user's association under an account goes on every cluster at once.
        Map<String, List<String>> accountsByUser = new LinkedHashMap<>();
        for (AssociationEntry a : picked) {
            List<AssociationEntry> everywhere = listed(
                    dbd,
                    ListAssocRequest.newBuilder()
                            .setEntity(AssocEntity.ASSOCIATIONS)
                            .addAccounts(a.getAccount())
                            .addUsers(a.getUser()));
            if (!picked.containsAll(everywhere)) {
                ErrorCode no = ErrorCode.NOT_SUPPORTED;
                out.error(
                        no.number(),
                        no.text(),
                        "sluice-dbd removes user " + a.getUser() + " from account " + a.getAccount()
                                + " on every cluster at once",
                        "_delete_assoc");
                return out.reply(500);
            }
            accountsByUser.computeIfAbsent(a.getUser(), u -> new ArrayList<>()).add(a.getAccount());
        }
        List<DbdRequest.Builder> deletions = new ArrayList<>();
        accountsByUser.forEach((user, accounts) -> deletions.add(DbdRequest.newBuilder()
                .setDeleteAssoc(DeleteAssocRequest.newBuilder()
                        .setEntity(AssocEntity.USERS)
                        .addNames(user)
                        .addAllAccounts(accounts.stream().distinct().toList()))));
        for (DbdRequest.Builder d : deletions) {
            dbd.call(DbWrites.withCommit(d.clone(), false));
        }
        for (DbdRequest.Builder d : deletions) {
            DbdResponse done = dbd.call(DbWrites.withCommit(d.clone(), true));
            done.getDeleted().getAssociationsList().forEach(a -> removed.add(DbWrites.named(a)));
        }
        return out.reply(200);
    }

    private static Reply ambiguous(Envelope out) {
        RestErrors ambiguous = RestErrors.AMBIGUOUS_MODIFY;
        out.error(
                ambiguous.number(),
                ambiguous.text(),
                "ambiguous request: More than 1 association would have been deleted.",
                "_delete_assoc");
        return out.reply(ambiguous.httpStatus());
    }

    private static List<AssociationEntry> listed(AccountingSession dbd, ListAssocRequest.Builder which)
            throws AccountingException {
        return dbd.call(DbdRequest.newBuilder().setListAssoc(which)).getListed().getAssociationsList();
    }
}
