package dev.sluice.restd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.restd.RestFixture.Answer;
import dev.sluice.restd.slurm.ApiVersion;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The newer versions' {@code /slurmdb/} deletions of accounts, users and associations, the
 * daemon's statistics, the whole configuration (read and applied) and cloud instances, over HTTP
 * in front of a stand-in sluice-dbd; every answer checked against that version's schema.
 */
class TestSlurmdbAdmin extends EveryVersion {

    private void deniedToAPlainUser(String method, String path, String schema) {
        Answer refused = rest.as(method, db + path, null);
        assertThat(refused.status()).as(refused.body().toString()).isEqualTo(500);
        docs.assertValidFor(schema, refused.body());
        assertThat(refused.body().at("/errors/0/error_number").asInt()).isEqualTo(2002);
    }

    /** Root's deletion of what is no longer there: 200, nothing listed, slurmrestd's warning. */
    private Answer nothingFoundAgain(String path, String schema) {
        Answer nothing = rest.asRoot("DELETE", db + path, null);
        assertThat(nothing.status()).isEqualTo(200);
        docs.assertValidFor(schema, nothing.body());
        assertThat(nothing.body().at("/warnings/0/description").asText()).contains("found nothing");
        return nothing;
    }

    @Test
    void onlyAnOperatorDeletesAnAccount() {
        deniedToAPlainUser("DELETE", "account/physics", "openapi_accounts_removed_resp");
        assertThat(rest.as("GET", db + "accounts", null).body().get("accounts")).hasSize(1);

        Answer deleted = rest.asRoot("DELETE", db + "account/physics", null);
        assertThat(deleted.status()).as(deleted.body().toString()).isEqualTo(200);
        docs.assertValidFor("openapi_accounts_removed_resp", deleted.body());
        assertThat(deleted.body().get("removed_accounts").toString()).isEqualTo("[\"physics\"]");
        assertThat(rest.as("GET", db + "accounts", null).body().get("accounts")).isEmpty();

        assertThat(nothingFoundAgain("account/physics", "openapi_accounts_removed_resp")
                        .body()
                        .get("removed_accounts"))
                .isEmpty();
    }

    @Test
    void onlyAnOperatorDeletesAUser() {
        deniedToAPlainUser("DELETE", "user/alice", "openapi_resp");
        assertThat(rest.as("GET", db + "users", null).body().get("users")).hasSize(1);

        Answer deleted = rest.asRoot("DELETE", db + "user/alice", null);
        assertThat(deleted.status()).as(deleted.body().toString()).isEqualTo(200);
        docs.assertValidFor("openapi_resp", deleted.body());
        assertThat(deleted.body().get("warnings")).isEmpty();
        assertThat(rest.as("GET", db + "users", null).body().get("users")).isEmpty();

        nothingFoundAgain("user/alice", "openapi_resp");
    }

    @Test
    void associationsAreDeletedAsTheQueryPicksThem() {
        deniedToAPlainUser("DELETE", "associations?account=physics&user=alice", "openapi_assocs_removed_resp");
        assertThat(rest.as("GET", db + "associations?user=alice", null).body().get("associations"))
                .hasSize(1);

        // One call would remove the account's association and alice's: not one.
        Answer ambiguous = rest.asRoot("DELETE", db + "association?account=physics", null);
        assertThat(ambiguous.status()).isEqualTo(400);
        docs.assertValidFor("openapi_assocs_removed_resp", ambiguous.body());
        assertThat(ambiguous.body().at("/errors/0/error_number").asInt()).isEqualTo(9210);
        Answer unknown = rest.asRoot("DELETE", db + "associations?qos=normal", null);
        assertThat(unknown.status()).isEqualTo(422);
        docs.assertValidFor("openapi_assocs_removed_resp", unknown.body());
        assertThat(unknown.body().at("/errors/0/description").asText()).contains("qos");

        int mark = rest.controller.accounting.seen.size();
        Answer deleted = rest.asRoot("DELETE", db + "association?account=physics&user=alice&cluster=test", null);
        assertThat(deleted.status()).as(deleted.body().toString()).isEqualTo(200);
        docs.assertValidFor("openapi_assocs_removed_resp", deleted.body());
        assertThat(deleted.body().get("removed_associations").toString())
                .isEqualTo("[\"C = test       A = physics    U = alice    \"]");
        List<Boolean> commits = TestSlurmdbWrites.changesSince(rest, mark).stream()
                .map(r -> r.getDeleteAssoc().getCommit())
                .toList();
        assertThat(commits).containsExactly(false, true);
        assertThat(rest.as("GET", db + "associations?user=alice", null).body().get("associations"))
                .isEmpty();

        assertThat(nothingFoundAgain("associations?user=alice", "openapi_assocs_removed_resp")
                        .body()
                        .get("removed_associations"))
                .isEmpty();
        // The account's own association goes only with the account.
        Answer own = rest.asRoot("DELETE", db + "associations?account=physics", null);
        assertThat(own.status()).isEqualTo(500);
        docs.assertValidFor("openapi_assocs_removed_resp", own.body());
        assertThat(own.body().at("/errors/0/error_number").asInt()).isEqualTo(2036);
        assertThat(TestSlurmdbWrites.changesSince(rest, mark)).hasSize(2);
    }

    @Test
    void diagIsTheDaemonsStatisticsForAnOperator() {
        deniedToAPlainUser("GET", "diag", "openapi_slurmdbd_stats_resp");
        Answer diag = rest.asRoot("GET", db + "diag", null);
        assertThat(diag.status()).as(diag.body().toString()).isEqualTo(200);
        docs.assertValidFor("openapi_slurmdbd_stats_resp", diag.body());
        var stats = diag.body().get("statistics");
        assertThat(stats.at("/time_start").asLong()).isEqualTo(1_800_000_000L);
        assertThat(stats.at("/rollups/hourly/count").asInt()).isEqualTo(2);
        assertThat(stats.at("/rollups/hourly/duration/max").asInt()).isEqualTo(900);
        assertThat(stats.at("/RPCs/1/rpc").asText()).isEqualTo("DBD_GET_QOS");
        assertThat(stats.at("/RPCs/1/count").asInt()).isEqualTo(3);
        assertThat(stats.at("/RPCs/1/time/average").asInt()).isEqualTo(33);
        assertThat(stats.at("/users/0/user").asText()).isEqualTo("root");
        assertThat(stats.at("/users/0/time/total").asInt()).isEqualTo(180);
    }

    @Test
    void theWholeConfigurationIsListedToAnOperator() {
        deniedToAPlainUser("GET", "config", "openapi_slurmdbd_config_resp");
        Answer config = rest.asRoot("GET", db + "config", null);
        assertThat(config.status()).as(config.body().toString()).isEqualTo(200);
        docs.assertValidFor("openapi_slurmdbd_config_resp", config.body());
        var c = config.body();
        assertThat(c.get("clusters").findValuesAsText("name")).containsExactly("test");
        assertThat(c.at("/tres/4/id").asInt()).isEqualTo(1001);
        assertThat(c.get("accounts").findValuesAsText("name")).containsExactly("physics");
        assertThat(c.at("/users/0/name").asText()).isEqualTo("alice");
        assertThat(c.get("qos")).hasSize(2);
        assertThat(c.get("wckeys")).isEmpty();
        assertThat(c.get("associations")).hasSize(3);
        // v0.0.45's configuration has no instances; the others list none.
        assertThat(c.has("instances")).isEqualTo(version.compareTo(ApiVersion.V0045) < 0);
    }

    @Test
    void aConfigurationIsAppliedWholeOrNotAtAll() {
        String body = """
                {"accounts": [{"name": "chem", "description": "chemistry", "organization": "science"}],
                 "users": [{"name": "dave"}],
                 "qos": [{"name": "low", "description": "cheap"}],
                 "wckeys": [{"cluster": "test", "name": "w1", "user": "alice"}],
                 "associations": [{"account": "physics", "cluster": "test", "user": "alice", "shares_raw": 7}]}""";
        docs.assertValidFor("openapi_slurmdbd_config_resp", OpenApiDocs.parse(body));
        int mark = rest.controller.accounting.seen.size();
        Answer refused = rest.as("POST", db + "config", body);
        assertThat(refused.status()).isEqualTo(500);
        docs.assertValidFor("openapi_resp", refused.body());
        assertThat(refused.body().at("/errors/0/error_number").asInt()).isEqualTo(2002);
        assertThat(TestSlurmdbWrites.changesSince(rest, mark)).hasSize(1);

        mark = rest.controller.accounting.seen.size();
        Answer applied = rest.asRoot("POST", db + "config", body);
        assertThat(applied.status()).as(applied.body().toString()).isEqualTo(200);
        docs.assertValidFor("openapi_resp", applied.body());
        List<DbdRequest> changes = TestSlurmdbWrites.changesSince(rest, mark);
        assertThat(changes.stream().map(DbdRequest::getBodyCase).map(Enum::name).toList())
                .containsExactly(
                        "ADD_ACCOUNTS",
                        "ADD_USERS",
                        "ADD_QOS",
                        "ADD_USERS",
                        "MODIFY_ASSOC",
                        "ADD_ACCOUNTS",
                        "ADD_USERS",
                        "ADD_QOS",
                        "ADD_USERS",
                        "MODIFY_ASSOC");
        assertThat(rest.as("GET", db + "account/chem", null)
                        .body()
                        .at("/accounts/0/description")
                        .asText())
                .isEqualTo("chemistry");
        assertThat(rest.asRoot("GET", db + "wckeys", null).body().get("wckeys").findValuesAsText("name"))
                .containsExactly("w1");

        mark = rest.controller.accounting.seen.size();
        for (String bad : new String[] {
            "{\"tres\": [{\"type\": \"license\", \"name\": \"matlab\"}]}",
            "{\"accounts\": [{\"name\": \"bio\"}], \"qos\": [{\"name\": \"x\", \"flags\": [\"SHINY\"]}]}",
            "{\"federations\": [{\"name\": \"f\"}]}",
            "[]"
        }) {
            Answer a = rest.asRoot("POST", db + "config", bad);
            assertThat(a.status()).as(bad + " -> " + a.body()).isEqualTo(400);
            docs.assertValidFor("openapi_resp", a.body());
            assertThat(a.body().at("/errors/0/error_number").asInt()).isEqualTo(9001);
        }
        assertThat(TestSlurmdbWrites.changesSince(rest, mark)).isEmpty();
    }

    @Test
    void sluiceDbdKeepsNoCloudInstances() {
        for (String path : new String[] {"instances", "instance?instance_id=i-1"}) {
            Answer a = rest.as("GET", db + path, null);
            assertThat(a.status()).as(a.body().toString()).isEqualTo(200);
            docs.assertValidFor("openapi_instances_resp", a.body());
            assertThat(a.body().get("instances")).isEmpty();
            assertThat(a.body().at("/warnings/0/description").asText()).contains("found nothing");
        }
    }
}
