package dev.sluice.packaging;

import static dev.sluice.restd.OpenApiDocs.assertValid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.restd.OpenApiDocs;
import dev.sluice.restd.slurm.ApiVersion;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The REST API's accounting tree ({@code /slurmdb/}) in front of a real sluice-dbd on its
 * database, with the controller and a node daemon as processes: finished jobs as sacct shows
 * them, and accounts, users, associations and QOS written through the API as sacctmgr then
 * shows them, in every data parser version, each answer checked against that version's
 * published schema; a plain user's writes refused with nothing changed.
 */
class TestRestAccountingEndToEnd extends RestClusterTest {
    /**
     * The job as accounting keeps it, from sluice-dbd with the same token, as sacct shows it; from
     * v0.0.44 its record changed over REST and with sacctmgr modify job, as sacct then shows it.
     */
    @ParameterizedTest
    @EnumSource(ApiVersion.class)
    void aFinishedJobIsInAccounting(ApiVersion v) throws Exception {
        Path out = cluster.workDir().resolve("acct-" + UUID.randomUUID() + ".out");
        int job = api.submit(v, "#!/bin/sh\nexit 3\n", out);
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> {
                    RestCluster.Answer a = api.send("GET", v.slurmdbPrefix() + "job/" + job, null);
                    assertThat(a.status()).as(a.body().toString()).isEqualTo(200);
                    OpenApiDocs.of(v).assertValidFor("openapi_slurmdbd_jobs_resp", a.body());
                    assertThat(a.body().at("/jobs/0/state/current/0").asText()).isEqualTo("FAILED");
                });
        RestCluster.Answer a = api.send("GET", v.slurmdbPrefix() + "job/" + job, null);
        assertThat(a.body().at("/jobs/0/exit_code/return_code/number").asInt()).isEqualTo(3);
        assertThat(a.body().at("/jobs/0/user").asText()).isEqualTo("root");
        assertThat(a.body().at("/jobs/0/tres/allocated/0/type").asText()).isEqualTo("cpu");
        String sacct = cluster.command("sacct", "-n", "-X", "-P", "-j", "" + job, "-o", "State,ExitCode")
                .out();
        assertThat(sacct).isEqualTo("FAILED|3:0\n");
        if (v.compareTo(ApiVersion.V0044) >= 0) {
            // Its record changed as sacctmgr modify job changes it, read back with sacct.
            RestCluster.Answer changed = api.send(
                    "POST",
                    v.slurmdbPrefix() + "job/" + job,
                    "{\"comment\": {\"job\": \"via rest\", \"administrator\": \"adm\"},"
                            + " \"derived_exit_code\": {\"return_code\": {\"set\": true, \"number\": 1}}}");
            assertThat(changed.status()).as(changed.body().toString()).isEqualTo(200);
            OpenApiDocs.of(v).assertValidFor("openapi_job_modify_resp", changed.body());
            assertThat(changed.body().at("/results/0").asText()).startsWith(job + " submitted at ");
            assertThat(cluster.command(
                                    "sacct",
                                    "-n",
                                    "-X",
                                    "-P",
                                    "-j",
                                    "" + job,
                                    "-o",
                                    "Comment,AdminComment,DerivedExitCode")
                            .out())
                    .isEqualTo("via rest|adm|1:0\n");
            assertThat(cluster.command("sacctmgr", "-i", "modify", "job", "where", "jobid=" + job, "set", "comment=cli")
                            .out())
                    .startsWith(" Modified jobs...\n  " + job + " submitted at ");
            assertThat(cluster.command("sacct", "-n", "-X", "-P", "-j", "" + job, "-o", "Comment")
                            .out())
                    .isEqualTo("cli\n");
        }
        RestCluster.Answer tres = api.send("GET", v.slurmdbPrefix() + "tres", null);
        OpenApiDocs.of(v).assertValidFor("openapi_tres_resp", tres.body());
        assertThat(tres.body().get("TRES")).isNotEmpty();
        RestCluster.Answer users = api.send("GET", v.slurmdbPrefix() + "users", null);
        OpenApiDocs.of(v).assertValidFor("openapi_users_resp", users.body());
    }

    /** QOS and clusters as sacctmgr shows them; changes only by root, as with sacctmgr. */
    @Test
    void qosClustersAndAccountChangesAsSacctmgr() throws Exception {
        String db = "/slurmdb/v0.0.44/";
        UnprivilegedUser alice = UnprivilegedUser.ensure(UnprivilegedUser.ATTACKER, stateDir);
        String aliceToken = api.tokenFor(alice.name());

        RestCluster.Answer clusters = api.send("GET", db + "clusters", null);
        assertThat(clusters.status()).as(clusters.body().toString()).isEqualTo(200);
        assertValid("v0.0.44_openapi_clusters_resp", clusters.body());
        String name = cluster.command("sacctmgr", "-n", "-P", "show", "cluster", "format=Cluster")
                .out()
                .strip();
        assertThat(clusters.body().at("/clusters/0/name").asText()).isEqualTo(name);
        assertThat(clusters.body().at("/clusters/0/associations/root/account").asText())
                .isEqualTo("root");

        cluster.command("sacctmgr", "-i", "add", "qos", "restqos", "priority=10", "maxwall=30");
        RestCluster.Answer qos = api.send("GET", db + "qos/restqos", null);
        assertThat(qos.status()).as(qos.body().toString()).isEqualTo(200);
        assertValid("v0.0.44_openapi_slurmdbd_qos_resp", qos.body());
        assertThat(qos.body().at("/qos/0/priority/number").asInt()).isEqualTo(10);
        assertThat(qos.body().at("/qos/0/limits/max/wall_clock/per/job/number").asInt())
                .isEqualTo(30);
        assertValid(
                "v0.0.44_openapi_slurmdbd_qos_resp",
                api.send("GET", db + "qos", null).body());

        RestCluster.Answer refused = api.send("DELETE", db + "qos/restqos", null, aliceToken);
        assertValid("v0.0.44_openapi_slurmdbd_qos_removed_resp", refused.body());
        assertThat(refused.body().at("/errors/0/error_number").asInt()).isEqualTo(2002);
        assertThat(cluster.command("sacctmgr", "-n", "-P", "show", "qos", "restqos", "format=Name")
                        .out())
                .isEqualTo("restqos\n");
        RestCluster.Answer deleted = api.send("DELETE", db + "qos/restqos", null);
        assertThat(deleted.status()).as(deleted.body().toString()).isEqualTo(200);
        assertThat(deleted.body().get("removed_qos").toString()).isEqualTo("[\"restqos\"]");
        assertThat(cluster.command("sacctmgr", "-n", "-P", "show", "qos", "restqos", "format=Name")
                        .out())
                .isEmpty();

        String body =
                "{\"accounts\": [{\"name\": \"restacct\", \"description\": \"rest\"," + " \"organization\": \"lab\"}]}";
        RestCluster.Answer notAlice = api.send("POST", db + "accounts", body, aliceToken);
        assertValid("v0.0.44_openapi_resp", notAlice.body());
        assertThat(notAlice.body().at("/errors/0/error_number").asInt()).isEqualTo(2002);
        assertThat(account("restacct")).isEmpty();
        RestCluster.Answer added = api.send("POST", db + "accounts", body);
        assertThat(added.status()).as(added.body().toString()).isEqualTo(200);
        assertValid("v0.0.44_openapi_resp", added.body());
        assertThat(account("restacct")).isEqualTo("restacct|rest|lab\n");
    }

    private static String account(String name) throws Exception {
        return cluster.command("sacctmgr", "-n", "-P", "show", "account", name, "format=Account,Descr,Org")
                .out();
    }

    /**
     * An account, a user's association under it, a QOS and a user's admin level, each written
     * through the API and then read back with sacctmgr, and deleted again; a plain user's try
     * changes nothing.
     */
    @ParameterizedTest
    @EnumSource(ApiVersion.class)
    void accountsAssociationsQosAndUsersAreWrittenAsSacctmgrShowsThem(ApiVersion v) throws Exception {
        String db = v.slurmdbPrefix();
        OpenApiDocs docs = OpenApiDocs.of(v);
        String suffix = v.name().toLowerCase(Locale.ROOT);
        String account = "ra_" + suffix;
        String qos = "rq_" + suffix;
        String user = UnprivilegedUser.ensure(UnprivilegedUser.VICTIM, stateDir).name();
        String aliceToken = api.tokenFor(
                UnprivilegedUser.ensure(UnprivilegedUser.ATTACKER, stateDir).name());
        String clusterName = sacctmgr("show", "cluster", "format=Cluster").strip();

        ok(
                docs,
                api.send(
                        "POST",
                        db + "accounts",
                        "{\"accounts\": [{\"name\": \"" + account
                                + "\", \"description\": \"rest\", \"organization\": \"lab\"}]}"));
        assertThat(sacctmgr("show", "account", account, "format=Account,Descr,Org"))
                .isEqualTo(account + "|rest|lab\n");

        String association = "{\"associations\": [{\"account\": \"" + account + "\", \"cluster\": \"" + clusterName
                + "\", \"user\": \"" + user + "\", \"shares_raw\": 3}]}";
        RestCluster.Answer refused = api.send("POST", db + "associations", association, aliceToken);
        assertThat(refused.body().at("/errors/0/error_number").asInt()).isEqualTo(2002);
        assertThat(sacctmgr("show", "assoc", "account=" + account, "user=" + user, "format=User"))
                .isEmpty();
        ok(docs, api.send("POST", db + "associations", association));
        assertThat(sacctmgr("show", "assoc", "account=" + account, "user=" + user, "format=Account,User,Share"))
                .isEqualTo(account + "|" + user + "|3\n");
        RestCluster.Answer listed = api.send("GET", db + "associations?account=" + account, null);
        docs.assertValidFor("openapi_assocs_resp", listed.body());
        assertThat(listed.body().get("associations").findValuesAsText("user")).contains(user);

        ok(
                docs,
                api.send(
                        "POST",
                        db + "qos",
                        "{\"qos\": [{\"name\": \"" + qos
                                + "\", \"description\": \"rest\", \"priority\": {\"set\": true, \"infinite\": false, \"number\": 7},"
                                + " \"limits\": {\"max\": {\"wall_clock\": {\"per\": {\"job\": {\"set\": true, \"infinite\": false,"
                                + " \"number\": 30}}}}}}]}"));
        assertThat(sacctmgr("show", "qos", qos, "format=Name,Priority,MaxWall")).isEqualTo(qos + "|7|00:30:00\n");

        ok(
                docs,
                api.send(
                        "POST",
                        db + "users",
                        "{\"users\": [{\"name\": \"" + user + "\", \"administrator_level\": [\"Operator\"]}]}"));
        assertThat(sacctmgr("show", "user", user, "format=User,Admin")).isEqualTo(user + "|Operator\n");
        ok(
                docs,
                api.send(
                        "POST",
                        db + "users",
                        "{\"users\": [{\"name\": \"" + user + "\", \"administrator_level\": [\"None\"]}]}"));
        assertThat(sacctmgr("show", "user", user, "format=User,Admin")).isEqualTo(user + "|None\n");

        RestCluster.Answer stats = api.send("GET", db + "diag", null);
        assertThat(stats.status()).as(stats.body().toString()).isEqualTo(200);
        docs.assertValidFor("openapi_slurmdbd_stats_resp", stats.body());
        RestCluster.Answer config = api.send("GET", db + "config", null);
        assertThat(config.status()).as(config.body().toString()).isEqualTo(200);
        docs.assertValidFor("openapi_slurmdbd_config_resp", config.body());
        assertThat(config.body().get("accounts").findValuesAsText("name")).contains(account);

        RestCluster.Answer unlinked = api.send(
                "DELETE", db + "association?account=" + account + "&user=" + user + "&cluster=" + clusterName, null);
        assertThat(unlinked.status()).as(unlinked.body().toString()).isEqualTo(200);
        docs.assertValidFor("openapi_assocs_removed_resp", unlinked.body());
        assertThat(sacctmgr("show", "assoc", "account=" + account, "user=" + user, "format=User"))
                .isEmpty();
        RestCluster.Answer gone = api.send("DELETE", db + "account/" + account, null);
        assertThat(gone.status()).as(gone.body().toString()).isEqualTo(200);
        docs.assertValidFor("openapi_accounts_removed_resp", gone.body());
        assertThat(sacctmgr("show", "account", account, "format=Account")).isEmpty();
        assertThat(api.send("DELETE", db + "qos/" + qos, null).status()).isEqualTo(200);
        assertThat(sacctmgr("show", "qos", qos, "format=Name")).isEmpty();
    }

    private static void ok(OpenApiDocs docs, RestCluster.Answer a) {
        assertThat(a.status()).as(a.body().toString()).isEqualTo(200);
        assertThat(a.body().get("errors")).as(a.body().toString()).isEmpty();
        docs.assertValidFor("openapi_resp", a.body());
    }

    private static String sacctmgr(String... args) throws Exception {
        String[] all = new String[args.length + 2];
        all[0] = "-n";
        all[1] = "-P";
        System.arraycopy(args, 0, all, 2, args.length);
        ClusterProcesses.Result r = cluster.command("sacctmgr", all);
        assertThat(r.err()).isEmpty();
        return r.out();
    }
}
