package dev.sluice.restd.dbv0038;

import dev.sluice.cli.command.sacct.AccountingClient.AccountingException;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.protocol.v1.AssocEntity;
import dev.sluice.protocol.v1.AssociationEntry;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.DeleteAssocRequest;
import dev.sluice.protocol.v1.DeleteAssocResult;
import dev.sluice.protocol.v1.DeleteQosRequest;
import dev.sluice.protocol.v1.ListAssocRequest;
import dev.sluice.restd.controller.AccountingSession;
import dev.sluice.restd.http.Reply;
import dev.sluice.restd.http.RestErrors;
import dev.sluice.restd.slurmdb.DbWrites;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * dbv0.0.38's deletions, as slurmrestd 22.05 answers them (compat 156, 157): each is committed at
 * once (slurmrestd asks no question), sluice-dbd refuses a caller that is no operator (2002)
 * and deletes nothing then. The answers differ by what was deleted, as 22.05's do: an account
 * is listed under {@code removed_associations}, a user under {@code removed_users}; an account
 * not there is error 1900 with status 200, a user or association not there a 304 without body.
 */
final class Deletes38 {
    private Deletes38() {}

    static Reply account(AccountingSession dbd, DbEnvelope38 out, String name) {
        DeleteAssocResult deleted;
        try {
            deleted = delete(
                    dbd,
                    DeleteAssocRequest.newBuilder()
                            .setEntity(AssocEntity.ACCOUNTS)
                            .addNames(name));
        } catch (AccountingException e) {
            // slurmrestd also fails the commit it tries after the refused removal.
            refused(out, e, "slurmdb_accounts_remove");
            if (e.code() == ErrorCode.ACCESS_DENIED.number()) {
                refused(out, e, "slurmdb_connection_commit");
            }
            return out.reply(500);
        }
        if (deleted.getDeletedCount() == 0) {
            ErrorCode none = ErrorCode.NO_CHANGE_IN_DATA;
            return out.error(null, none.number(), none.text(), "slurmdb_accounts_remove")
                    .reply(200);
        }
        out.body().putArray("removed_associations").add(deleted.getDeleted(0));
        return out.reply(200);
    }

    static Reply user(AccountingSession dbd, DbEnvelope38 out, String name) {
        DeleteAssocResult deleted;
        try {
            deleted = delete(
                    dbd,
                    // slurmrestd 22.05 asks for the user in lower case, as sacctmgr does, and
                    // lists that spelling as removed (RestUser: "restuser", compat 149); the
                    // daemon matches it in any case.
                    DeleteAssocRequest.newBuilder()
                            .setEntity(AssocEntity.USERS)
                            .addNames(name.toLowerCase(Locale.ROOT)));
        } catch (AccountingException e) {
            return refused(out, e, "slurmdb_users_remove").reply(500);
        }
        if (deleted.getDeletedCount() == 0) {
            return Reply.text(304, "");
        }
        out.body().putArray("removed_users").add(deleted.getDeleted(0));
        return out.reply(200);
    }

    /**
     * One user's association under one account ({@code account=} and {@code user=}; {@code
     * cluster=} this cluster's, if given). A request that would remove more than one association
     * (an account's with its users', or every one) is refused as 22.05 refuses it, as
     * ambiguous; sluice-dbd removes an account's own association only with the account, so a
     * request for that one alone is refused too. Either changes nothing.
     */
    static Reply association(AccountingSession dbd, DbEnvelope38 out, Map<String, String> query, String cluster) {
        String account = query.getOrDefault("account", "");
        String user = query.getOrDefault("user", "");
        String partition = query.getOrDefault("partition", "");
        if (!query.getOrDefault("cluster", cluster).equals(cluster) || !partition.isEmpty()) {
            // No such association here: sluice-dbd keeps this cluster's, without partitions.
            return Reply.text(304, "");
        }
        if (account.isEmpty() || user.isEmpty()) {
            int matched;
            try {
                ListAssocRequest.Builder which = ListAssocRequest.newBuilder()
                        .setEntity(AssocEntity.ASSOCIATIONS)
                        .addClusters(cluster);
                if (!account.isEmpty()) {
                    which.addAccounts(account);
                }
                if (!user.isEmpty()) {
                    which.addUsers(user);
                }
                matched = dbd.call(DbdRequest.newBuilder().setListAssoc(which))
                        .getListed()
                        .getAssociationsCount();
            } catch (AccountingException e) {
                out.body().putArray("removed_associations");
                return refused(out, e, "slurmdb_associations_get").reply(500);
            }
            out.body().putArray("removed_associations");
            if (matched > 1) {
                RestErrors invalid = RestErrors.INVALID_QUERY;
                return out.error(
                                "ambiguous request: More than 1 association would have been deleted.",
                                invalid.number(),
                                invalid.text(),
                                null)
                        .reply(400);
            }
            if (matched == 0) {
                return Reply.text(304, "");
            }
            ErrorCode refused = ErrorCode.NOT_SUPPORTED;
            return out.error(
                            "sluice-dbd removes an account's own association only with the account",
                            refused.number(),
                            refused.text(),
                            "slurmdb_associations_remove")
                    .reply(500);
        }
        DeleteAssocResult deleted;
        try {
            deleted = delete(
                    dbd,
                    DeleteAssocRequest.newBuilder()
                            .setEntity(AssocEntity.USERS)
                            .addNames(user)
                            .addAccounts(account));
        } catch (AccountingException e) {
            out.body().putArray("removed_associations");
            refused(out, e, "slurmdb_associations_remove");
            // ... and its listing of what went, which the refusal leaves it without.
            return out.error("unable to query associations", number(e), text(e), null)
                    .reply(500);
        }
        List<AssociationEntry> gone = deleted.getAssociationsList();
        if (gone.isEmpty()) {
            return Reply.text(304, "");
        }
        var removed = out.body().putArray("removed_associations");
        gone.forEach(a -> removed.add(DbWrites.named(a)));
        return out.reply(200);
    }

    /** A QOS: {@code removed_qos}; one not there is 9003 "Nothing found", HTTP 500 (compat 157). */
    static Reply qos(AccountingSession dbd, DbEnvelope38 out, String name) {
        List<String> deleted;
        try {
            deleted = dbd.call(DbdRequest.newBuilder()
                            .setDeleteQos(
                                    DeleteQosRequest.newBuilder().addNames(name).setCommit(true)))
                    .getDeleted()
                    .getDeletedList();
        } catch (AccountingException e) {
            return refused(out, e, "slurmdb_qos_remove").reply(500);
        }
        if (deleted.isEmpty()) {
            return out.nothingFound("slurmdb_qos_remove").reply(500);
        }
        var removed = out.body().putArray("removed_qos");
        deleted.forEach(removed::add);
        return out.reply(200);
    }

    /**
     * {@code DELETE cluster/{name}}: sluice-dbd deletes no cluster, so an operator gets its
     * refusal; anyone else gets 2002 with an empty {@code deleted_clusters}, as 22.05 answers
     * (compat 181). (22.05 answered root 304 and deleted nothing, an existing cluster too.)
     */
    static Reply cluster(AccountingSession dbd, DbEnvelope38 out, String name) {
        var deleted = out.body().putArray("deleted_clusters");
        DeleteAssocResult result;
        try {
            result = delete(
                    dbd,
                    DeleteAssocRequest.newBuilder()
                            .setEntity(AssocEntity.CLUSTERS)
                            .addNames(name));
        } catch (AccountingException e) {
            return refused(out, e, "slurmdb_clusters_remove").reply(500);
        }
        if (result.getDeletedCount() == 0) {
            return Reply.text(304, "");
        }
        result.getDeletedList().forEach(deleted::add);
        return out.reply(200);
    }

    private static DeleteAssocResult delete(AccountingSession dbd, DeleteAssocRequest.Builder request)
            throws AccountingException {
        return dbd.call(DbdRequest.newBuilder().setDeleteAssoc(request.setCommit(true)))
                .getDeleted();
    }

    private static DbEnvelope38 refused(DbEnvelope38 out, AccountingException e, String source) {
        return out.error(null, number(e), text(e), source);
    }

    /** The daemon's error number; none (it could not be reached) is slurmdbd's connection error. */
    private static int number(AccountingException e) {
        return e.code() != 0 ? e.code() : ErrorCode.DB_CONNECTION.number();
    }

    /** Slurm's text for a known number, else the daemon's own words. */
    private static String text(AccountingException e) {
        ErrorCode known = ErrorCode.fromNumber(e.code());
        return e.code() != 0 && known.number() == e.code() ? known.text() : e.getMessage();
    }
}
