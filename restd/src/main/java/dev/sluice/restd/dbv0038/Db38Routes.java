package dev.sluice.restd.dbv0038;

import dev.sluice.protocol.v1.AssocEntity;
import dev.sluice.restd.http.Endpoints;

/**
 * The {@code /slurmdb/v0.0.38/} routes Sluice serves, each with the 22.05 schema of its answer
 * (and of its body, for writes): the dispatch table of {@link Db38} and what {@code /openapi/v3}
 * lists, each bound to what serves it.
 */
final class Db38Routes {
    private Db38Routes() {}

    /** Every route of dbv0.0.38 and what serves it. */
    static final Endpoints<Db38.Request> ALL = Endpoints.<Db38.Request>builder()
            .get(
                    "jobs/",
                    "jobs as accounting keeps them",
                    "dbv0.0.38_job_info",
                    (q, arg) -> q.api()
                            .jobs(
                                    q.db(),
                                    q.out(),
                                    JobFilter38.read(
                                            q.call().query(), q.api().clock.instant())))
            .get(
                    "job/{job_id}",
                    "one job as accounting keeps it",
                    "dbv0.0.38_job_info",
                    (q, arg) -> q.api().jobs(q.db(), q.out(), JobFilter38.one(arg)))
            .get(
                    "accounts/",
                    "every account",
                    "dbv0.0.38_account_info",
                    (q, arg) -> Db38.accounts(q.db(), q.out(), arg))
            .post(
                    "accounts/",
                    "add accounts (without associations) or change them (operators only)",
                    "dbv0.0.38_account_response",
                    "dbv0.0.38_update_account",
                    (q, arg) -> AssocPosts38.ACCOUNTS.reply(
                            q.db().dbd, q.out(), q.call().body()))
            .get(
                    "account/{account_name}",
                    "one account",
                    "dbv0.0.38_account_info",
                    (q, arg) -> Db38.accounts(q.db(), q.out(), arg))
            .delete(
                    "account/{account_name}",
                    "delete an account, as sacctmgr delete account (operators only)",
                    "dbv0.0.38_response_account_delete",
                    (q, arg) -> Deletes38.account(q.db().dbd, q.out(), arg))
            .get("users/", "every user", "dbv0.0.38_user_info", (q, arg) -> Db38.users(q.db(), q.out(), arg))
            .post(
                    "users/",
                    "add users (without associations) or change them (operators only)",
                    "dbv0.0.38_response_user_update",
                    "dbv0.0.38_update_users",
                    (q, arg) -> AssocPosts38.USERS.reply(
                            q.db().dbd, q.out(), q.call().body()))
            .get("user/{user_name}", "one user", "dbv0.0.38_user_info", (q, arg) -> Db38.users(q.db(), q.out(), arg))
            .delete(
                    "user/{user_name}",
                    "delete a user, as sacctmgr delete user (operators only)",
                    "dbv0.0.38_response_user_delete",
                    (q, arg) -> Deletes38.user(q.db().dbd, q.out(), arg))
            .get(
                    "associations/",
                    "every association",
                    "dbv0.0.38_associations_info",
                    (q, arg) -> Db38.associations(q.db(), q.out()))
            .post(
                    "associations/",
                    "add associations of users and accounts (operators only)",
                    "dbv0.0.38_response_associations",
                    "dbv0.0.38_associations_info",
                    (q, arg) -> AssocPosts38.associations(
                            q.db().dbd, q.out(), q.call().body(), q.api().cluster))
            .delete(
                    "association",
                    "delete a user's association under an account (operators only)",
                    "dbv0.0.38_response_associations_delete",
                    (q, arg) ->
                            Deletes38.association(q.db().dbd, q.out(), q.call().query(), q.api().cluster))
            .get(
                    "wckeys/",
                    "every wckey: users' wckeys, each user's default flagged",
                    "dbv0.0.38_wckey_info",
                    (q, arg) -> Db38.wckeys(q.db(), q.out(), q.call().user(), ""))
            .post(
                    "wckeys/",
                    "add users' wckeys, as sacctmgr add user ... wckey= (operators only)",
                    "dbv0.0.38_response_wckey_add",
                    "dbv0.0.38_wckey_info",
                    (q, arg) -> Wckeys38.post(q.db().dbd, q.out(), q.call().body(), operator(q)))
            .get(
                    "wckey/{wckey}",
                    "one wckey, as each user has it",
                    "dbv0.0.38_wckey_info",
                    (q, arg) -> Db38.wckeys(q.db(), q.out(), q.call().user(), arg))
            .delete(
                    "wckey/{wckey}",
                    "delete a wckey from every user who has it (operators only)",
                    "dbv0.0.38_response_wckey_delete",
                    (q, arg) -> Wckeys38.delete(q.db().dbd, q.out(), arg))
            .get("qos/", "every QOS", "dbv0.0.38_qos_info", (q, arg) -> Db38.qos(q.db(), q.out(), arg))
            .post(
                    "qos/",
                    "add QOS or change them: settings, flags, preemption and limits (operators only)",
                    "dbv0.0.38_response_qos",
                    "dbv0.0.38_update_qos",
                    (q, arg) -> QosPosts38.qos(q.db().dbd, q.out(), q.call().body()))
            .get("qos/{qos_name}", "one QOS", "dbv0.0.38_qos_info", (q, arg) -> Db38.qos(q.db(), q.out(), arg))
            .delete(
                    "qos/{qos_name}",
                    "delete a QOS, as sacctmgr delete qos (operators only)",
                    "dbv0.0.38_response_qos_delete",
                    (q, arg) -> Deletes38.qos(q.db().dbd, q.out(), arg))
            .get("tres/", "the TRES", "dbv0.0.38_tres_info", (q, arg) -> Db38.tres(q.db(), q.out()))
            .post(
                    "tres/",
                    "update TRES: refused (2036), as 22.05 refuses it",
                    "dbv0.0.38_response_tres",
                    "dbv0.0.38_tres_update",
                    (q, arg) -> Config38.tres(q.out()))
            .get(
                    "clusters/",
                    "the clusters",
                    "dbv0.0.38_cluster_info",
                    (q, arg) -> q.api().clusters(q.db(), q.out(), q.call().controller()))
            .post(
                    "clusters/",
                    "add clusters by name (operators only)",
                    "dbv0.0.38_response_cluster_add",
                    "dbv0.0.38_clusters_properties",
                    (q, arg) -> Clusters38.add(q.db().dbd, q.out(), q.call().body()))
            .get(
                    "cluster/{cluster_name}",
                    "one cluster",
                    "dbv0.0.38_cluster_info",
                    (q, arg) -> q.api()
                            .clusters
                            .one(
                                    q.db().list(AssocEntity.CLUSTERS, arg),
                                    q.db().tres(),
                                    q.call().controller(),
                                    q.out()))
            .delete(
                    "cluster/{cluster_name}",
                    "delete a cluster: refused (a plain user's with 2002; sluice-dbd deletes no cluster)",
                    "dbv0.0.38_response_cluster_delete",
                    (q, arg) -> Deletes38.cluster(q.db().dbd, q.out(), arg))
            .get(
                    "config/",
                    "everything above at once",
                    "dbv0.0.38_config_info",
                    (q, arg) -> q.api().config(q.db(), q.out(), q.call()))
            .post(
                    "config/",
                    "add or change clusters, accounts, users, QOS and associations at once (operators only)",
                    "dbv0.0.38_config_response",
                    "dbv0.0.38_set_config",
                    (q, arg) -> Config38.config(q.db().dbd, q.out(), q.call().body(), q.api().cluster, operator(q)))
            .get(
                    "diag/",
                    "the accounting daemon's statistics, as sacctmgr show stats (operators only)",
                    "dbv0.0.38_diag",
                    (q, arg) -> Diag38.diag(q.db().dbd, q.out()))
            .build();

    /** Whether the caller is root or an operator, as sluice-dbd lists the users. */
    private static boolean operator(Db38.Request q) throws Exception {
        return Db38.operator(
                q.db().list(AssocEntity.USERS, "").getUsersList(), q.call().user());
    }
}
