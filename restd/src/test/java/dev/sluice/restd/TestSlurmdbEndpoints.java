package dev.sluice.restd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.restd.RestFixture.Answer;
import org.junit.jupiter.api.Test;

/**
 * The {@code /slurmdb/} endpoints over HTTP in each version, in front of a stand-in sluice-dbd,
 * each answer checked against that version's schema from Slurm.
 */
class TestSlurmdbEndpoints extends EveryVersion {

    @Test
    void jobsAreListedAsAccountingKeepsThem() {
        Answer a = rest.as("GET", db + "jobs/", null);
        assertThat(a.status()).as(a.body().toString()).isEqualTo(200);
        docs.assertValidFor("openapi_slurmdbd_jobs_resp", a.body());
        assertThat(a.body().at("/meta/plugin/type").asText()).isEqualTo("openapi/slurmdbd");
        assertThat(a.body().get("jobs")).hasSize(2);
        var train = a.body().at("/jobs/0");
        assertThat(train.at("/job_id").asInt()).isEqualTo(7);
        assertThat(train.at("/state/current/0").asText()).isEqualTo("COMPLETED");
        assertThat(train.at("/time/elapsed").asInt()).isEqualTo(60);
        assertThat(train.at("/time/limit/number").asInt()).isEqualTo(10);
        assertThat(train.at("/association/id").asInt()).isEqualTo(3);
        // TRES with the database's ids: the GPU is gres/gpu, id 1001.
        assertThat(train.at("/tres/allocated").toString())
                .contains("{\"type\":\"cpu\",\"name\":\"\",\"id\":1,\"count\":2}")
                .contains("{\"type\":\"gres\",\"name\":\"gpu\",\"id\":1001,\"count\":1}");
        assertThat(train.at("/steps/0/step/id").asText()).isEqualTo("7.batch");
        var oops = a.body().at("/jobs/1");
        assertThat(oops.at("/exit_code/status/0").asText()).isEqualTo("ERROR");
        assertThat(oops.at("/exit_code/return_code/number").asInt()).isEqualTo(3);
        assertThat(oops.at("/time/limit/infinite").asBoolean()).isTrue();
    }

    @Test
    void queryParametersNarrowTheQueryAsSacctOptionsDo() {
        Answer a = rest.as("GET", db + "jobs?users=bob&state=FAILED&start_time=1700000000", null);
        assertThat(a.status()).isEqualTo(200);
        docs.assertValidFor("openapi_slurmdbd_jobs_resp", a.body());
        assertThat(a.body().get("jobs")).hasSize(1);
        DbdRequest sent = rest.controller.accounting.seen.getLast();
        assertThat(sent.getQueryJobs().getUsersList()).containsExactly("bob");
        assertThat(sent.getQueryJobs().getStatesList()).containsExactly(JobState.FAILED);
        assertThat(sent.getQueryJobs().getWindowStart()).isEqualTo(1_700_000_000L);

        Answer bad = rest.as("GET", db + "jobs?state=SLEEPY", null);
        assertThat(bad.status()).isEqualTo(422);
        docs.assertValidFor("openapi_slurmdbd_jobs_resp", bad.body());
        assertThat(bad.body().at("/errors/0/description").asText()).contains("SLEEPY");
    }

    @Test
    void oneJobByIdAndAnUnknownOne() {
        Answer one = rest.as("GET", db + "job/8", null);
        assertThat(one.status()).isEqualTo(200);
        docs.assertValidFor("openapi_slurmdbd_jobs_resp", one.body());
        assertThat(one.body().at("/jobs/0/user").asText()).isEqualTo("bob");
        Answer none = rest.as("GET", db + "job/999", null);
        assertThat(none.status()).isEqualTo(200);
        assertThat(none.body().get("jobs")).isEmpty();
    }

    @Test
    void tresAccountsUsersAndAssociations() {
        Answer tres = rest.as("GET", db + "tres", null);
        docs.assertValidFor("openapi_tres_resp", tres.body());
        assertThat(tres.body().at("/TRES/4/id").asInt()).isEqualTo(1001);

        Answer accounts = rest.as("GET", db + "accounts", null);
        docs.assertValidFor("openapi_accounts_resp", accounts.body());
        assertThat(accounts.body().at("/accounts/0/name").asText()).isEqualTo("physics");
        assertThat(accounts.body().at("/accounts/0/organization").asText()).isEqualTo("science");

        Answer users = rest.as("GET", db + "user/alice", null);
        docs.assertValidFor("openapi_users_resp", users.body());
        assertThat(users.body().at("/users/0/default/account").asText()).isEqualTo("physics");
        assertThat(users.body().at("/users/0/associations/0/id").asInt()).isEqualTo(3);

        Answer assocs = rest.as("GET", db + "associations?user=alice", null);
        docs.assertValidFor("openapi_assocs_resp", assocs.body());
        // The stand-in narrows the listing to alice's as sluice-dbd does.
        assertThat(assocs.body().get("associations")).hasSize(1);
        assertThat(assocs.body().at("/associations/0/qos").toString()).isEqualTo("[\"normal\",\"high\"]");
        assertThat(assocs.body().at("/associations/0/max/jobs/active/number").asInt())
                .isEqualTo(4);
        assertThat(rest.controller.accounting.seen.getLast().getListAssoc().getUsersList())
                .containsExactly("alice");
    }

    @Test
    void qosWithTheSettingsAccountingKeeps() {
        Answer all = rest.as("GET", db + "qos", null);
        assertThat(all.status()).as(all.body().toString()).isEqualTo(200);
        docs.assertValidFor("openapi_slurmdbd_qos_resp", all.body());
        assertThat(all.body().get("qos")).hasSize(2);
        var normal = all.body().at("/qos/0");
        assertThat(normal.at("/name").asText()).isEqualTo("normal");
        assertThat(normal.at("/preempt/mode").toString()).isEqualTo("[\"DISABLED\"]");
        assertThat(normal.at("/preempt/exempt_time/set").asBoolean()).isFalse();
        assertThat(normal.at("/limits/max/wall_clock/per/job/infinite").asBoolean())
                .isTrue();
        assertThat(normal.at("/usage_factor/number").asDouble()).isEqualTo(1.0);
        assertThat(normal.at("/limits/max/tres/per/node")).isEmpty();

        Answer one = rest.as("GET", db + "qos/high", null);
        assertThat(one.status()).isEqualTo(200);
        docs.assertValidFor("openapi_slurmdbd_qos_resp", one.body());
        assertThat(rest.controller.accounting.seen.getLast().getListQos().getNamesList())
                .containsExactly("high");
        var high = one.body().at("/qos/0");
        assertThat(high.at("/description").asText()).isEqualTo("urgent work");
        assertThat(high.at("/priority/number").asInt()).isEqualTo(100);
        assertThat(high.at("/flags").toString()).isEqualTo("[\"DENY_LIMIT\",\"NO_RESERVE\"]");
        assertThat(high.at("/usage_factor/number").asDouble()).isEqualTo(2.5);
        assertThat(high.at("/preempt/list").toString()).isEqualTo("[\"normal\"]");
        assertThat(high.at("/preempt/mode").toString()).isEqualTo("[\"REQUEUE\"]");
        assertThat(high.at("/preempt/exempt_time/number").asInt()).isEqualTo(300);
        assertThat(high.at("/limits/grace_time").asInt()).isEqualTo(120);
        assertThat(high.at("/limits/max/wall_clock/per/job/number").asInt()).isEqualTo(60);
        assertThat(high.at("/limits/max/jobs/active_jobs/per/user/number").asInt())
                .isEqualTo(2);
        // A limit of zero is a limit, not "none".
        assertThat(high.at("/limits/max/jobs/per/user/set").asBoolean()).isTrue();
        assertThat(high.at("/limits/max/jobs/per/user/number").asInt()).isZero();
        assertThat(high.at("/limits/max/active_jobs/count/infinite").asBoolean())
                .isTrue();
        assertThat(high.at("/limits/max/tres/total").toString())
                .contains("{\"type\":\"cpu\",\"name\":\"\",\"id\":1,\"count\":8}")
                .contains("{\"type\":\"gres\",\"name\":\"gpu\",\"id\":1001,\"count\":2}");
        assertThat(high.at("/limits/max/tres/per/user/0/count").asInt()).isEqualTo(4);
        assertThat(high.at("/limits/max/tres/per/node").toString())
                .isEqualTo("[{\"type\":\"cpu\",\"name\":\"\",\"id\":1,\"count\":2},"
                        + "{\"type\":\"gres\",\"name\":\"gpu\",\"id\":1001,\"count\":1}]");

        Answer none = rest.as("GET", db + "qos/nosuch", null);
        assertThat(none.status()).isEqualTo(200);
        docs.assertValidFor("openapi_slurmdbd_qos_resp", none.body());
        assertThat(none.body().get("qos")).isEmpty();
    }

    @Test
    void clustersAsSacctmgrShowsThem() {
        Answer all = rest.as("GET", db + "clusters", null);
        assertThat(all.status()).as(all.body().toString()).isEqualTo(200);
        docs.assertValidFor("openapi_clusters_resp", all.body());
        assertThat(all.body().get("clusters")).hasSize(1);
        var test = all.body().at("/clusters/0");
        assertThat(test.at("/name").asText()).isEqualTo("test");
        assertThat(test.at("/controller/host").asText()).isEqualTo("10.0.0.1");
        assertThat(test.at("/controller/port").asInt()).isEqualTo(6817);
        assertThat(test.at("/rpc_version").asInt()).isEqualTo(9728);
        assertThat(test.at("/associations/root/account").asText()).isEqualTo("root");
        assertThat(test.at("/associations/root/id").asInt()).isEqualTo(1);

        Answer one = rest.as("GET", db + "cluster/test", null);
        assertThat(one.status()).isEqualTo(200);
        docs.assertValidFor("openapi_clusters_resp", one.body());
        assertThat(one.body().at("/clusters/0/name").asText()).isEqualTo("test");
        DbdRequest roots = rest.controller.accounting.seen.getLast();
        assertThat(roots.getListAssoc().getClustersList()).containsExactly("test");
        assertThat(roots.getListAssoc().getAccountsList()).containsExactly("root");
    }

    @Test
    void onlyAnOperatorGivesListsAndDeletesWckeys() {
        String body = """
                {"wckeys": [{"cluster": "test", "name": "w1", "user": "alice"},
                            {"cluster": "test", "name": "w1", "user": "bob"}]}""";
        Answer refused = rest.as("POST", db + "wckeys", body);
        assertThat(refused.status()).isEqualTo(500);
        docs.assertValidFor("openapi_resp", refused.body());
        assertThat(refused.body().at("/errors/0/error_number").asInt()).isEqualTo(2002);
        Answer hidden = rest.as("GET", db + "wckeys", null);
        assertThat(hidden.status()).isEqualTo(500);
        docs.assertValidFor("openapi_wckey_resp", hidden.body());

        Answer added = rest.asRoot("POST", db + "wckeys", body);
        assertThat(added.status()).as(added.body().toString()).isEqualTo(200);
        docs.assertValidFor("openapi_resp", added.body());
        Answer listed = rest.asRoot("GET", db + "wckeys?user=bob", null);
        assertThat(listed.status()).isEqualTo(200);
        docs.assertValidFor("openapi_wckey_resp", listed.body());
        assertThat(rest.controller.accounting.seen.getLast().getListWckeys().getUsersList())
                .containsExactly("bob");
        Answer all = rest.asRoot("GET", db + "wckeys", null);
        assertThat(all.body().get("wckeys").findValuesAsText("user")).containsExactly("alice", "bob");
        int bobs = all.body().at("/wckeys/1/id").asInt();
        Answer one = rest.asRoot("GET", db + "wckey/" + bobs, null);
        docs.assertValidFor("openapi_wckey_resp", one.body());
        assertThat(one.body().get("wckeys").findValuesAsText("user")).containsExactly("bob");

        Answer deleted = rest.asRoot("DELETE", db + "wckey/" + bobs, null);
        assertThat(deleted.status()).as(deleted.body().toString()).isEqualTo(200);
        docs.assertValidFor("openapi_wckey_removed_resp", deleted.body());
        assertThat(deleted.body().get("deleted_wckeys").toString())
                .isEqualTo("[\"C = test       W = w1                   U = bob      \"]");
        assertThat(rest.asRoot("GET", db + "wckeys", null).body().get("wckeys").findValuesAsText("user"))
                .containsExactly("alice");
        Answer nothing = rest.asRoot("DELETE", db + "wckey/" + bobs, null);
        assertThat(nothing.status()).isEqualTo(200);
        docs.assertValidFor("openapi_wckey_removed_resp", nothing.body());
        assertThat(nothing.body().get("deleted_wckeys")).isEmpty();
        Answer bad = rest.asRoot("POST", db + "wckeys", "{\"wckeys\": [{\"name\": \"w2\"}]}");
        assertThat(bad.status()).isEqualTo(400);
        docs.assertValidFor("openapi_resp", bad.body());
    }

    @Test
    void onlyAnOperatorDeletesAQos() {
        Answer refused = rest.as("DELETE", db + "qos/high", null);
        assertThat(refused.status()).isEqualTo(500);
        docs.assertValidFor("openapi_slurmdbd_qos_removed_resp", refused.body());
        assertThat(refused.body().at("/errors/0/error_number").asInt()).isEqualTo(2002);
        assertThat(refused.body().at("/errors/0/error").asText()).isEqualTo("Access/permission denied");
        assertThat(refused.body().get("removed_qos")).isEmpty();
        assertThat(rest.as("GET", db + "qos", null).body().get("qos")).hasSize(2);

        Answer deleted = rest.asRoot("DELETE", db + "qos/high", null);
        assertThat(deleted.status()).as(deleted.body().toString()).isEqualTo(200);
        docs.assertValidFor("openapi_slurmdbd_qos_removed_resp", deleted.body());
        assertThat(deleted.body().get("removed_qos").toString()).isEqualTo("[\"high\"]");
        assertThat(rest.controller.accounting.seen.getLast().getDeleteQos().getCommit())
                .isTrue();
        Answer left = rest.as("GET", db + "qos", null);
        assertThat(left.body().get("qos")).hasSize(1);
        assertThat(left.body().at("/qos/0/name").asText()).isEqualTo("normal");

        Answer nothing = rest.asRoot("DELETE", db + "qos/high", null);
        assertThat(nothing.status()).isEqualTo(200);
        docs.assertValidFor("openapi_slurmdbd_qos_removed_resp", nothing.body());
        assertThat(nothing.body().get("removed_qos")).isEmpty();
        assertThat(nothing.body().at("/warnings/0/description").asText()).contains("found nothing");
    }

    @Test
    void onlyAnOperatorAddsOrUpdatesAccounts() {
        String body = """
                {"accounts": [
                  {"name": "chem", "description": "chemistry", "organization": "science"},
                  {"name": "physics", "description": "physics and astronomy", "organization": "sciences"}]}
                """;
        // The body is one Slurm's own clients would send.
        docs.assertValidFor("openapi_accounts_resp", OpenApiDocs.parse(body));

        Answer refused = rest.as("POST", db + "accounts", body);
        assertThat(refused.status()).isEqualTo(500);
        docs.assertValidFor("openapi_resp", refused.body());
        assertThat(refused.body().at("/errors/0/error_number").asInt()).isEqualTo(2002);
        Answer unchanged = rest.as("GET", db + "accounts", null);
        assertThat(unchanged.body().get("accounts")).hasSize(1);
        assertThat(unchanged.body().at("/accounts/0/description").asText()).isEqualTo("physics dept");

        int mark = rest.controller.accounting.seen.size();
        Answer added = rest.asRoot("POST", db + "accounts", body);
        assertThat(added.status()).as(added.body().toString()).isEqualTo(200);
        docs.assertValidFor("openapi_resp", added.body());
        Answer chem = rest.as("GET", db + "account/chem", null);
        docs.assertValidFor("openapi_accounts_resp", chem.body());
        assertThat(chem.body().at("/accounts/0/description").asText()).isEqualTo("chemistry");
        assertThat(chem.body().at("/accounts/0/organization").asText()).isEqualTo("science");
        Answer physics = rest.as("GET", db + "account/physics", null);
        assertThat(physics.body().at("/accounts/0/description").asText()).isEqualTo("physics and astronomy");
        assertThat(physics.body().at("/accounts/0/organization").asText()).isEqualTo("sciences");
        // Root's request: every change tried uncommitted before any is committed.
        var changes = rest.controller.accounting.seen.subList(mark, rest.controller.accounting.seen.size()).stream()
                .filter(r -> r.hasAddAccounts() || r.hasModifyAssoc())
                .map(r -> r.hasAddAccounts()
                        ? r.getAddAccounts().getCommit()
                        : r.getModifyAssoc().getCommit())
                .toList();
        assertThat(changes).containsExactly(false, false, true, true);
    }

    @Test
    void aBodyThatIsNotAccountsChangesNothing() {
        int before = rest.controller.accounting.seen.size();
        for (String bad : new String[] {
            "{\"accounts\": [{\"description\": \"no name\"}]}",
            "{\"accounts\": {\"name\": \"x\"}}",
            "{\"accounts\": [{\"name\": \"x\", \"organization\": 3}]}",
            "{\"job\": {}}"
        }) {
            Answer a = rest.asRoot("POST", db + "accounts", bad);
            assertThat(a.status()).as(bad).isEqualTo(400);
            docs.assertValidFor("openapi_resp", a.body());
            assertThat(a.body().at("/errors/0/error_number").asInt()).isEqualTo(9001);
        }
        assertThat(rest.controller.accounting.seen).hasSize(before);

        Answer ignored = rest.asRoot(
                "POST",
                db + "accounts",
                "{\"accounts\": [{\"name\": \"bio\", \"associations\": [{\"account\": \"bio\","
                        + " \"cluster\": \"test\", \"user\": \"\"}], \"coordinators\": [{\"name\": \"alice\"}]}]}");
        assertThat(ignored.status()).isEqualTo(200);
        docs.assertValidFor("openapi_resp", ignored.body());
        assertThat(ignored.body().at("/warnings/0/description").asText()).contains("associations ignored");
        assertThat(ignored.body().at("/warnings/1/description").asText()).contains("coordinators ignored");
    }

    @Test
    void aDatabaseThatDoesNotAnswerIsAnError() {
        rest.controller.accounting.down = true;
        Answer a = rest.as("GET", db + "jobs", null);
        assertThat(a.status()).isEqualTo(500);
        docs.assertValidFor("openapi_slurmdbd_jobs_resp", a.body());
        assertThat(a.body().at("/errors/0/error").asText()).contains("Connection refused");
        Answer ping = rest.as("GET", db + "ping", null);
        assertThat(ping.status()).isEqualTo(500);
        docs.assertValidFor("openapi_slurmdbd_ping_resp", ping.body());
        Answer qos = rest.as("GET", db + "qos", null);
        assertThat(qos.status()).isEqualTo(500);
        docs.assertValidFor("openapi_slurmdbd_qos_resp", qos.body());
        Answer clusters = rest.as("GET", db + "clusters", null);
        assertThat(clusters.status()).isEqualTo(500);
        docs.assertValidFor("openapi_clusters_resp", clusters.body());
    }
}
