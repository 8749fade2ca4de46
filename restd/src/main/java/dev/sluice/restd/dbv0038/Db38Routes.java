package dev.sluice.restd.dbv0038;

import dev.sluice.restd.http.Route;
import java.util.List;

/**
 * The {@code /slurmdb/v0.0.38/} routes Sluice serves, each with the 22.05 schema of its answer
 * (and of its body, for writes): the dispatch table of {@link Db38} and what {@code /openapi/v3}
 * lists.
 */
final class Db38Routes {
    private Db38Routes() {}

    static final List<Route> ALL = List.of(
            Route.get("jobs/", "jobs as accounting keeps them", "dbv0.0.38_job_info"),
            Route.get("job/{job_id}", "one job as accounting keeps it", "dbv0.0.38_job_info"),
            Route.get("accounts/", "every account", "dbv0.0.38_account_info"),
            Route.post(
                    "accounts/",
                    "add accounts (without associations) or change them (operators only)",
                    "dbv0.0.38_account_response",
                    "dbv0.0.38_update_account"),
            Route.get("account/{account_name}", "one account", "dbv0.0.38_account_info"),
            Route.delete(
                    "account/{account_name}",
                    "delete an account, as sacctmgr delete account (operators only)",
                    "dbv0.0.38_response_account_delete"),
            Route.get("users/", "every user", "dbv0.0.38_user_info"),
            Route.post(
                    "users/",
                    "add users (without associations) or change them (operators only)",
                    "dbv0.0.38_response_user_update",
                    "dbv0.0.38_update_users"),
            Route.get("user/{user_name}", "one user", "dbv0.0.38_user_info"),
            Route.delete(
                    "user/{user_name}",
                    "delete a user, as sacctmgr delete user (operators only)",
                    "dbv0.0.38_response_user_delete"),
            Route.get("associations/", "every association", "dbv0.0.38_associations_info"),
            Route.post(
                    "associations/",
                    "add associations of users and accounts (operators only)",
                    "dbv0.0.38_response_associations",
                    "dbv0.0.38_associations_info"),
            Route.delete(
                    "association",
                    "delete a user's association under an account (operators only)",
                    "dbv0.0.38_response_associations_delete"),
            Route.get("wckeys/", "every wckey (sluice-dbd keeps none)", "dbv0.0.38_wckey_info"),
            Route.get("wckey/{wckey}", "one wckey (sluice-dbd keeps none)", "dbv0.0.38_wckey_info"),
            Route.delete("wckey/{wckey}", "delete a wckey (sluice-dbd keeps none)", "dbv0.0.38_response_wckey_delete"),
            Route.get("qos/", "every QOS", "dbv0.0.38_qos_info"),
            Route.post(
                    "qos/",
                    "add QOS or change them: settings, flags, preemption and limits (operators only)",
                    "dbv0.0.38_response_qos",
                    "dbv0.0.38_update_qos"),
            Route.get("qos/{qos_name}", "one QOS", "dbv0.0.38_qos_info"),
            Route.delete(
                    "qos/{qos_name}",
                    "delete a QOS, as sacctmgr delete qos (operators only)",
                    "dbv0.0.38_response_qos_delete"),
            Route.get("tres/", "the TRES", "dbv0.0.38_tres_info"),
            Route.get("clusters/", "the clusters", "dbv0.0.38_cluster_info"),
            Route.post(
                    "clusters/",
                    "add clusters by name (operators only)",
                    "dbv0.0.38_response_cluster_add",
                    "dbv0.0.38_clusters_properties"),
            Route.get("cluster/{cluster_name}", "one cluster", "dbv0.0.38_cluster_info"),
            Route.delete(
                    "cluster/{cluster_name}",
                    "delete a cluster: refused (a plain user's with 2002; sluice-dbd deletes no cluster)",
                    "dbv0.0.38_response_cluster_delete"),
            Route.get("config/", "everything above at once", "dbv0.0.38_config_info"),
            Route.get(
                    "diag/",
                    "the accounting daemon's statistics, as sacctmgr show stats (operators only)",
                    "dbv0.0.38_diag"));
}
