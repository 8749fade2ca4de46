package dev.sluice.dbd.server;

import static dev.sluice.common.slurm.DbdMessageType.*;

import dev.sluice.common.slurm.DbdMessageType;
import dev.sluice.protocol.v1.AssocEntity;
import dev.sluice.protocol.v1.DbdRequest;

/**
 * The slurmdbd message type a command's request is counted under in the statistics: the one
 * Slurm's client sends for the same work. A change sluice-dbd is asked to commit is Slurm's
 * DBD_FINI with commit set (sacctmgr's change is previewed first, under its own type, as Slurm
 * applies it and then commits it).
 */
final class RpcTypes {
    private RpcTypes() {}

    static DbdMessageType of(DbdRequest r) {
        if (committed(r)) {
            return DBD_FINI;
        }
        return switch (r.getBodyCase()) {
            case QUERY_JOBS -> DBD_GET_JOBS_COND;
            case ADD_ACCOUNTS -> DBD_ADD_ACCOUNTS;
            // Users are added with their associations, as sacctmgr's DBD_ADD_USERS.
            case ADD_USERS -> DBD_ADD_USERS;
            case ADD_CLUSTERS -> DBD_ADD_CLUSTERS;
            case LIST_ASSOC ->
                entity(r.getListAssoc().getEntity(), DBD_GET_ACCOUNTS, DBD_GET_USERS, DBD_GET_ASSOCS, DBD_GET_CLUSTERS);
            case DELETE_ASSOC ->
                entity(
                        r.getDeleteAssoc().getEntity(),
                        DBD_REMOVE_ACCOUNTS,
                        r.getDeleteAssoc().getAccountsCount() > 0 ? DBD_REMOVE_ASSOCS : DBD_REMOVE_USERS,
                        DBD_REMOVE_ASSOCS,
                        DBD_REMOVE_CLUSTERS);
            case MODIFY_ASSOC ->
                entity(
                        r.getModifyAssoc().getEntity(),
                        DBD_MODIFY_ACCOUNTS,
                        DBD_MODIFY_USERS,
                        DBD_MODIFY_ASSOCS,
                        DBD_MODIFY_CLUSTERS);
            case ADD_QOS -> DBD_ADD_QOS;
            case MODIFY_QOS -> DBD_MODIFY_QOS;
            case MODIFY_JOBS -> DBD_MODIFY_JOB;
            case LIST_QOS -> DBD_GET_QOS;
            case DELETE_QOS -> DBD_REMOVE_QOS;
            // sreport's cluster reports read the cluster's rollups, its user and account reports
            // the associations'; sluice-dbd answers both with one request.
            case QUERY_USAGE -> DBD_GET_ASSOC_USAGE;
            case QUERY_RESERVATIONS -> DBD_GET_RESVS;
            case LIST_TRES -> DBD_GET_TRES;
            case LIST_WCKEYS -> DBD_GET_WCKEYS;
            case GET_STATS -> DBD_GET_STATS;
            case CLEAR_STATS -> DBD_CLEAR_STATS;
            case BODY_NOT_SET -> null;
        };
    }

    private static boolean committed(DbdRequest r) {
        return switch (r.getBodyCase()) {
            case ADD_ACCOUNTS -> r.getAddAccounts().getCommit();
            case ADD_USERS -> r.getAddUsers().getCommit();
            case ADD_CLUSTERS -> r.getAddClusters().getCommit();
            case DELETE_ASSOC -> r.getDeleteAssoc().getCommit();
            case MODIFY_ASSOC -> r.getModifyAssoc().getCommit();
            case ADD_QOS -> r.getAddQos().getCommit();
            case MODIFY_QOS -> r.getModifyQos().getCommit();
            case MODIFY_JOBS -> r.getModifyJobs().getCommit();
            case DELETE_QOS -> r.getDeleteQos().getCommit();
            default -> false;
        };
    }

    private static DbdMessageType entity(
            AssocEntity e,
            DbdMessageType accounts,
            DbdMessageType users,
            DbdMessageType associations,
            DbdMessageType clusters) {
        return switch (e) {
            case ACCOUNTS -> accounts;
            case USERS -> users;
            case CLUSTERS -> clusters;
            default -> associations;
        };
    }
}
