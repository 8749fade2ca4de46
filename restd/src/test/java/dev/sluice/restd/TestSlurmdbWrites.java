package dev.sluice.restd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.restd.RestFixture.Answer;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The newer versions' {@code /slurmdb/} writes of users, associations, QOS and clusters over
 * HTTP, in front of a stand-in sluice-dbd: an operator's change tried and then committed, a
 * plain user's refused (2002) with nothing changed, a body that does not read refused (9001)
 * before anything is changed; every answer, and every body sent, checked against that version's
 * schema from Slurm.
 */
class TestSlurmdbWrites extends EveryVersion {

    /** The changes (not the listings) asked of the daemon since {@code mark}. */
    static List<DbdRequest> changesSince(RestFixture rest, int mark) {
        var seen = rest.controller.accounting.seen;
        return seen.subList(mark, seen.size()).stream()
                .filter(r -> switch (r.getBodyCase()) {
                    case ADD_ACCOUNTS,
                            ADD_USERS,
                            ADD_CLUSTERS,
                            MODIFY_ASSOC,
                            ADD_QOS,
                            MODIFY_QOS,
                            DELETE_ASSOC,
                            DELETE_QOS -> true;
                    default -> false;
                })
                .toList();
    }

    /** Each change's commit flag, in the order asked. */
    private static List<Boolean> commits(List<DbdRequest> changes) {
        return changes.stream()
                .map(r -> switch (r.getBodyCase()) {
                    case ADD_USERS -> r.getAddUsers().getCommit();
                    case ADD_ACCOUNTS -> r.getAddAccounts().getCommit();
                    case ADD_CLUSTERS -> r.getAddClusters().getCommit();
                    case MODIFY_ASSOC -> r.getModifyAssoc().getCommit();
                    case ADD_QOS -> r.getAddQos().getCommit();
                    case MODIFY_QOS -> r.getModifyQos().getCommit();
                    default -> r.getDeleteAssoc().getCommit();
                })
                .toList();
    }

    private void refusedAsPlainUser(String path, String body, String schema) {
        int mark = rest.controller.accounting.seen.size();
        Answer refused = rest.as("POST", db + path, body);
        assertThat(refused.status()).as(refused.body().toString()).isEqualTo(500);
        docs.assertValidFor(schema, refused.body());
        assertThat(refused.body().at("/errors/0/error_number").asInt()).isEqualTo(2002);
        assertThat(commits(changesSince(rest, mark))).doesNotContain(true);
    }

    private void badBodies(String path, String schema, String... bodies) {
        int mark = rest.controller.accounting.seen.size();
        for (String bad : bodies) {
            Answer a = rest.asRoot("POST", db + path, bad);
            assertThat(a.status()).as(bad + " -> " + a.body()).isEqualTo(400);
            docs.assertValidFor(schema, a.body());
            assertThat(a.body().at("/errors/0/error_number").asInt()).as(bad).isEqualTo(9001);
        }
        assertThat(changesSince(rest, mark)).isEmpty();
    }

    /** Root's POST of {@code body}: answered 200 with {@code openapi_resp}; the changes it asked. */
    private List<DbdRequest> appliedByRoot(String path, String body) {
        int mark = rest.controller.accounting.seen.size();
        Answer done = rest.asRoot("POST", db + path, body);
        assertThat(done.status()).as(done.body().toString()).isEqualTo(200);
        docs.assertValidFor("openapi_resp", done.body());
        last = done;
        return changesSince(rest, mark);
    }

    /** The answer {@link #appliedByRoot} got. */
    private Answer last;

    @Test
    void usersAreAddedOrChangedByAnOperatorOnly() {
        String body = """
                {"users": [
                  {"name": "bob", "administrator_level": ["Operator"]},
                  {"name": "alice", "administrator_level": ["Administrator"], "flags": ["DELETED"],
                   "associations": [{"account": "physics", "cluster": "test", "user": "alice"}]}]}""";
        docs.assertValidFor("openapi_users_resp", OpenApiDocs.parse(body));
        refusedAsPlainUser("users", body, "openapi_resp");
        assertThat(rest.as("GET", db + "users", null).body().get("users")).hasSize(1);

        List<DbdRequest> changes = appliedByRoot("users", body);
        assertThat(last.body().get("warnings").findValuesAsText("description"))
                .anyMatch(w -> w.contains("alice associations list ignored"))
                .contains("Ignoring request to set flag: DELETED");
        assertThat(commits(changes)).containsExactly(false, false, true, true);
        assertThat(changes.get(2).getAddUsers().getNamesList()).containsExactly("bob");
        assertThat(changes.get(2).getAddUsers().getAdminLevel()).isEqualTo("Operator");
        assertThat(changes.get(2).getAddUsers().getWithoutAssociations()).isTrue();
        assertThat(changes.get(3).getModifyAssoc().getAdminLevel()).isEqualTo("Administrator");
        Answer users = rest.as("GET", db + "users", null);
        docs.assertValidFor("openapi_users_resp", users.body());
        assertThat(users.body().get("users").findValuesAsText("name")).containsExactly("alice", "bob");
        assertThat(users.body().at("/users/1/administrator_level/0").asText()).isEqualTo("Operator");
    }

    @Test
    void aUserBodyThatDoesNotReadChangesNothing() {
        badBodies(
                "users",
                "openapi_resp",
                "{\"users\": [{\"administrator_level\": [\"Operator\"]}]}",
                "{\"users\": [{\"name\": \"x\", \"administrator_level\": [\"Boss\"]}]}",
                "{\"users\": [{\"name\": \"x\", \"old_name\": \"y\"}]}",
                "{\"users\": [{\"name\": \"x\", \"wckeys\": [{\"name\": \"w\", \"cluster\": \"test\", \"user\": \"x\"}]}]}",
                "{\"users\": [{\"name\": \"x\", \"default\": {\"account\": \"physics\"}}]}",
                "{\"users\": {\"name\": \"x\"}}");
        Answer named = rest.asRoot("POST", db + "users", "{\"users\": [{\"name\": \"x\", \"old_name\": \"y\"}]}");
        assertThat(named.body().at("/errors/0/description").asText()).contains("users/old_name");
    }

    @Test
    void usersAreAddedWithTheirAssociations() {
        String body = """
                {"association_condition": {"accounts": ["physics"], "users": ["carol"], "clusters": ["test"],
                   "association": {"maxjobs": {"set": true, "infinite": false, "number": 4},
                                   "maxtresperjob": [{"type": "cpu", "count": 8}]}},
                 "user": {"adminlevel": ["None"], "defaultaccount": "physics"}}""";
        docs.assertValidFor("openapi_users_add_cond_resp", OpenApiDocs.parse(body));
        refusedAsPlainUser("users_association", body, "openapi_users_add_cond_resp_str");

        int mark = rest.controller.accounting.seen.size();
        Answer added = rest.asRoot("POST", db + "users_association", body);
        assertThat(added.status()).as(added.body().toString()).isEqualTo(200);
        docs.assertValidFor("openapi_users_add_cond_resp_str", added.body());
        assertThat(added.body().get("added_users").asText())
                .contains("Adding User(s)")
                .contains("carol");
        List<DbdRequest> changes = changesSince(rest, mark);
        assertThat(commits(changes)).containsExactly(false, true);
        var add = changes.get(1).getAddUsers();
        assertThat(add.getAccountsList()).containsExactly("physics");
        assertThat(add.getClustersList()).containsExactly("test");
        assertThat(add.getDefaultAccount()).isEqualTo("physics");
        assertThat(add.getLimits().getMaxJobs()).isEqualTo(4);
        assertThat(add.getLimits().getMaxTres()).isEqualTo("cpu=8");

        Answer neither = rest.asRoot(
                "POST", db + "users_association", "{\"association_condition\": {\"users\": [\"dan\"]}, \"user\": {}}");
        assertThat(neither.status()).isEqualTo(400);
        docs.assertValidFor("openapi_users_add_cond_resp_str", neither.body());
        assertThat(neither.body().at("/errors/0/error_number").asInt()).isEqualTo(9211);
        badBodies(
                "users_association",
                "openapi_users_add_cond_resp_str",
                "{\"association_condition\": {\"users\": [\"dan\"], \"accounts\": [\"physics\"],"
                        + " \"partitions\": [\"debug\"]}, \"user\": {}}",
                "{\"association_condition\": {\"users\": [\"dan\"], \"accounts\": [\"physics\"],"
                        + " \"association\": {\"grpwall\": 60}}, \"user\": {}}",
                "{\"user\": {}}");
    }

    @Test
    void associationsAreAddedOrChangedByAnOperatorOnly() {
        String body = """
                {"associations": [
                  {"account": "physics", "cluster": "test", "user": "alice",
                   "max": {"jobs": {"active": {"set": true, "infinite": false, "number": 5}},
                           "tres": {"per": {"job": [{"type": "gres", "name": "gpu", "count": 1}]}}}},
                  {"account": "physics", "cluster": "test", "user": "bob", "shares_raw": 3},
                  {"account": "physics", "cluster": "test", "user": "",
                   "max": {"jobs": {"per": {"wall_clock": {"set": false, "infinite": true, "number": 0}}}}}]}""";
        docs.assertValidFor("openapi_assocs_resp", OpenApiDocs.parse(body));
        refusedAsPlainUser("associations", body, "openapi_resp");

        List<DbdRequest> changes = appliedByRoot("associations", body);
        assertThat(commits(changes)).containsExactly(false, false, false, true, true, true);
        var alice = changes.get(3).getModifyAssoc();
        assertThat(alice.getNamesList()).containsExactly("alice");
        assertThat(alice.getAccountsList()).containsExactly("physics");
        assertThat(alice.getLimits().getMaxJobs()).isEqualTo(5);
        assertThat(alice.getLimits().getMaxTres()).isEqualTo("gres/gpu=1");
        var bob = changes.get(4).getAddUsers();
        assertThat(bob.getNamesList()).containsExactly("bob");
        assertThat(bob.getLimits().getShares()).isEqualTo(3);
        var physics = changes.get(5).getModifyAssoc();
        assertThat(physics.getNamesList()).containsExactly("physics");
        assertThat(physics.getClearedList()).containsExactly("maxwall");

        badBodies(
                "associations",
                "openapi_resp",
                "{\"associations\": [{\"account\": \"physics\", \"user\": \"alice\", \"comment\": \"x\"}]}",
                "{\"associations\": [{\"account\": \"physics\", \"user\": \"alice\", \"partition\": \"debug\"}]}",
                "{\"associations\": [{\"account\": \"physics\", \"user\": \"alice\","
                        + " \"min\": {\"priority_threshold\": {\"set\": true, \"number\": 9}}}]}",
                "{\"associations\": [{\"user\": \"alice\"}]}",
                "{\"associations\": [{\"account\": \"physics\", \"user\": \"alice\", \"shares_raw\": \"many\"}]}");
        Answer named = rest.asRoot(
                "POST",
                db + "associations",
                "{\"associations\": [{\"account\": \"physics\", \"user\": \"alice\","
                        + " \"min\": {\"priority_threshold\": {\"set\": true, \"number\": 9}}}]}");
        assertThat(named.body().at("/errors/0/description").asText()).contains("associations/min/priority_threshold");
    }

    @Test
    void qosIsAddedOrChangedByAnOperatorOnly() {
        String body = """
                {"qos": [
                  {"name": "low", "description": "cheap", "flags": ["DENY_LIMIT"],
                   "priority": {"set": true, "infinite": false, "number": 5},
                   "limits": {"max": {"wall_clock": {"per": {"job": {"set": true, "infinite": false, "number": 30}}},
                                      "tres": {"total": [{"type": "cpu", "count": 16}]}}}},
                  {"name": "high", "description": "urgent",
                   "limits": {"max": {"jobs": {"per": {"user": {"set": false, "infinite": true, "number": 0}}}}}}]}""";
        docs.assertValidFor("openapi_slurmdbd_qos_resp", OpenApiDocs.parse(body));
        refusedAsPlainUser("qos", body, "openapi_resp");
        assertThat(rest.as("GET", db + "qos", null).body().get("qos")).hasSize(2);

        List<DbdRequest> changes = appliedByRoot("qos", body);
        assertThat(commits(changes)).containsExactly(false, false, true, true);
        var low = changes.get(2).getAddQos();
        assertThat(low.getGivenList()).contains("description", "priority", "maxwall", "grptres", "flags");
        assertThat(low.getSettings().getMaxWallMinutes()).isEqualTo(30);
        assertThat(low.getSettings().getGrpTres()).isEqualTo("cpu=16");
        assertThat(changes.get(3).getModifyQos().getClearedList()).containsExactly("maxsubmitjobsperuser");
        Answer listed = rest.as("GET", db + "qos/low", null);
        docs.assertValidFor("openapi_slurmdbd_qos_resp", listed.body());
        assertThat(listed.body().at("/qos/0/description").asText()).isEqualTo("cheap");

        // What this daemon lists, sent back, reads.
        assertThat(appliedByRoot("qos", rest.as("GET", db + "qos", null).body().toString()))
                .isNotEmpty();

        badBodies(
                "qos",
                "openapi_resp",
                "{\"qos\": [{\"name\": \"x\", \"flags\": [\"SHINY\"]}]}",
                "{\"qos\": [{\"name\": \"x\", \"limits\": {\"max\": {\"tres\": {\"total\": [{\"type\": \"bogus\","
                        + " \"count\": 1}]}}}}]}",
                "{\"qos\": [{\"name\": \"x\", \"limits\": {\"min\": {\"priority_threshold\": {\"set\": true,"
                        + " \"number\": 3}}}}]}",
                "{\"qos\": [{\"name\": \"x\", \"preempt\": {\"list\": [\"nosuch\"]}}]}",
                "{\"qos\": [{\"description\": \"nameless\"}]}");
    }

    @Test
    void clustersAreAddedByAnOperatorAndNeverDeleted() {
        String body = "{\"clusters\": [{\"name\": \"other\"}]}";
        docs.assertValidFor("openapi_clusters_resp", OpenApiDocs.parse(body));
        refusedAsPlainUser("clusters", body, "openapi_resp");
        assertThat(rest.as("GET", db + "clusters", null).body().get("clusters")).hasSize(1);

        assertThat(commits(appliedByRoot("clusters", body))).containsExactly(false, true);
        assertThat(rest.as("GET", db + "clusters", null).body().get("clusters").findValuesAsText("name"))
                .containsExactly("test", "other");
        badBodies(
                "clusters",
                "openapi_resp",
                "{\"clusters\": [{\"name\": \"x\", \"nodes\": \"n[1-2]\"}]}",
                "{\"clusters\": [{}]}");

        Answer plain = rest.as("DELETE", db + "cluster/other", null);
        assertThat(plain.status()).isEqualTo(500);
        docs.assertValidFor("openapi_clusters_removed_resp", plain.body());
        assertThat(plain.body().at("/errors/0/error_number").asInt()).isEqualTo(2002);
        Answer root = rest.asRoot("DELETE", db + "cluster/other", null);
        assertThat(root.status()).isEqualTo(500);
        docs.assertValidFor("openapi_clusters_removed_resp", root.body());
        assertThat(root.body().get("deleted_clusters")).isEmpty();
        assertThat(root.body().at("/errors/0/description").asText()).contains("delete");
        assertThat(rest.as("GET", db + "clusters", null).body().get("clusters")).hasSize(2);
    }
}
