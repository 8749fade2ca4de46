package dev.sluice.restd;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.NodeStateRequest;
import dev.sluice.restd.RestFixture.Answer;
import dev.sluice.restd.slurm.ApiVersion;
import org.junit.jupiter.api.Test;

/**
 * POST nodes/, POST new/node/ and GET shares in each data parser version that has them, each
 * request and answer checked against that version's schema.
 */
class TestRestNodeWrites extends EveryVersion {

    private Answer asBob(String method, String path, String body) {
        return rest.send(method, path, body, "bob", rest.token("bob"));
    }

    private JsonNode states(String node) {
        return rest.as("GET", V + "node/" + node, null).body().at("/nodes/0/state");
    }

    @Test
    void manyNodesAreDrainedAndResumedInOneControllerRequest() {
        String drain = "{\"name\":[\"n[1-2]\"],\"state\":[\"DRAIN\"],\"reason\":\"rack maintenance\"}";
        docs.assertValidFor("update_node_msg", OpenApiDocs.parse(drain));
        int before = rest.controller.seen.size();
        Answer a = rest.as("POST", V + "nodes/", drain);
        assertThat(a.status()).isEqualTo(200);
        docs.assertValidFor("openapi_resp", a.body());
        assertThat(a.body().get("errors")).isEmpty();
        assertThat(rest.controller.seen.subList(before, rest.controller.seen.size()))
                .extracting(s -> s.request().getBodyCase())
                .containsExactly(ClientRequest.BodyCase.UPDATE_NODE);
        var sent = rest.controller.seen.getLast().request().getUpdateNode();
        assertThat(sent.getNodeNames()).isEqualTo("n[1-2]");
        assertThat(sent.getState()).isEqualTo(NodeStateRequest.NODE_STATE_REQUEST_DRAIN);
        assertThat(sent.getReason()).isEqualTo("rack maintenance");
        assertThat(states("n1").toString()).isEqualTo("[\"IDLE\",\"DRAIN\"]");
        assertThat(states("n2").toString()).isEqualTo("[\"IDLE\",\"DRAIN\"]");

        String resume = "{\"name\":[\"n1\",\"n2\"],\"state\":[\"RESUME\"]}";
        docs.assertValidFor("update_node_msg", OpenApiDocs.parse(resume));
        Answer r = rest.as("POST", V + "nodes", resume);
        assertThat(r.status()).isEqualTo(200);
        docs.assertValidFor("openapi_resp", r.body());
        assertThat(rest.controller.seen.getLast().request().getUpdateNode().getNodeNames())
                .isEqualTo("n1,n2");
        assertThat(states("n1").toString()).isEqualTo("[\"IDLE\"]");
        assertThat(states("n2").toString()).isEqualTo("[\"IDLE\"]");
    }

    @Test
    void aPlainUsersNodeUpdateIsRefusedWithSlurmsError() {
        Answer a = asBob("POST", V + "nodes/", "{\"name\":[\"n1\"],\"state\":[\"DRAIN\"],\"reason\":\"x\"}");
        assertThat(a.status()).isEqualTo(500);
        docs.assertValidFor("openapi_resp", a.body());
        assertThat(a.body().at("/errors/0/error_number").asInt()).isEqualTo(2010);
        assertThat(a.body().at("/errors/0/error").asText()).isEqualTo("Invalid user id");
        assertThat(states("n1").toString()).isEqualTo("[\"IDLE\"]");
        // The controller decided, for the caller the token names.
        assertThat(rest.controller.seen.stream()
                        .filter(s -> s.request().hasUpdateNode())
                        .map(FakeController.Seen::user))
                .containsExactly("bob");
    }

    @Test
    void noNodeNamesIsRefusedWithoutAskingTheController() {
        Answer a = rest.as("POST", V + "nodes/", "{\"state\":[\"DRAIN\"],\"reason\":\"x\"}");
        assertThat(a.status()).isEqualTo(500);
        docs.assertValidFor("openapi_resp", a.body());
        assertThat(a.body().at("/errors/0/error_number").asInt()).isEqualTo(2018);
        assertThat(rest.controller.seen).noneMatch(s -> s.request().hasUpdateNode());

        Answer unknown = rest.as("POST", V + "nodes/", "{\"name\":[\"n1\",\"zz\"],\"state\":[\"DRAIN\"]}");
        assertThat(unknown.status()).isEqualTo(500);
        docs.assertValidFor("openapi_resp", unknown.body());
        assertThat(unknown.body().at("/errors/0/error_number").asInt()).isEqualTo(2018);
    }

    @Test
    void aNameInASingleNodeUpdateIsIgnoredWithAWarning() {
        Answer a = rest.as("POST", V + "node/n1", "{\"name\":[\"n2\"],\"state\":[\"DRAIN\"],\"reason\":\"r\"}");
        assertThat(a.status()).isEqualTo(200);
        docs.assertValidFor("openapi_resp", a.body());
        assertThat(a.body().at("/warnings/0/description").asText())
                .isEqualTo("node_names field n2 ignored for singular node update");
        assertThat(states("n1").toString()).isEqualTo("[\"IDLE\",\"DRAIN\"]");
        assertThat(states("n2").toString()).isEqualTo("[\"IDLE\"]");
    }

    @Test
    void aDynamicNodeIsCreatedFromItsNodeLine() {
        String body = "{\"node_conf\":\"NodeName=d1 CPUs=4 RealMemory=8000 State=CLOUD\"}";
        Answer a = rest.as("POST", V + "new/node/", body);
        if (version.compareTo(ApiVersion.V0044) < 0) {
            assertThat(a.status()).isEqualTo(404);
            return;
        }
        docs.assertValidFor("openapi_create_node_req", OpenApiDocs.parse(body));
        assertThat(a.status()).isEqualTo(200);
        docs.assertValidFor("openapi_resp", a.body());
        assertThat(rest.controller.seen.getLast().request().getCreateNode().getNodeLine())
                .isEqualTo("NodeName=d1 CPUs=4 RealMemory=8000 State=CLOUD");
        assertThat(rest.as("GET", V + "node/d1", null).status()).isEqualTo(200);

        Answer again = rest.as("POST", V + "new/node/", body);
        assertThat(again.status()).isEqualTo(500);
        docs.assertValidFor("openapi_resp", again.body());
        assertThat(again.body().at("/errors/0/error_number").asInt()).isEqualTo(2018);

        Answer bob = asBob("POST", V + "new/node/", "{\"node_conf\":\"NodeName=d2 CPUs=4\"}");
        assertThat(bob.status()).isEqualTo(500);
        docs.assertValidFor("openapi_resp", bob.body());
        assertThat(bob.body().at("/errors/0/error_number").asInt()).isEqualTo(2010);

        Answer empty = rest.as("POST", V + "new/node/", "{\"node_conf\":\"\"}");
        assertThat(empty.status()).isEqualTo(400);
        docs.assertValidFor("openapi_resp", empty.body());
    }

    @Test
    void sharesAreTheFairShareTreeWithParents() {
        Answer a = rest.as("GET", V + "shares", null);
        assertThat(a.status()).isEqualTo(200);
        docs.assertValidFor("openapi_shares_resp", a.body());
        JsonNode list = a.body().at("/shares/shares");
        assertThat(list)
                .extracting(n -> n.get("name").asText())
                .containsExactly("root", "physics", "alice", "chem", "bob");
        assertThat(list)
                .extracting(n -> n.get("parent").asText())
                .containsExactly("", "root", "physics", "root", "chem");
        assertThat(list)
                .extracting(n -> n.at("/type/0").asText())
                .containsExactly("ASSOCIATION", "ASSOCIATION", "USER", "ASSOCIATION", "USER");
        assertThat(a.body().at("/shares/total_shares").asLong()).isEqualTo(4);
        JsonNode alice = list.get(2);
        assertThat(alice.at("/shares/number").asInt()).isEqualTo(1);
        assertThat(alice.at("/fairshare/factor/number").asDouble()).isEqualTo(0.5);
        assertThat(alice.at("/fairshare/level/number").asDouble()).isEqualTo(1.25);
        assertThat(alice.get("usage").asLong()).isEqualTo(600);
        assertThat(alice.at("/tres/run_seconds/0/name").asText()).isEqualTo("cpu");
        assertThat(alice.at("/tres/run_seconds/0/value/number").asLong()).isEqualTo(1200);
        assertThat(alice.get("cluster").asText()).isEqualTo("test");
        // root's shares are its own parent's: no number; an account's fairshare is not printed.
        assertThat(list.get(0).at("/shares/set").asBoolean()).isFalse();
        assertThat(list.get(1).at("/fairshare/factor/set").asBoolean()).isFalse();

        Answer users = rest.as("GET", V + "shares?users=bob", null);
        docs.assertValidFor("openapi_shares_resp", users.body());
        assertThat(users.body().at("/shares/shares"))
                .extracting(n -> n.get("name").asText())
                .containsExactly("root", "physics", "chem", "bob");
        Answer accounts = rest.as("GET", V + "shares?accounts=physics", null);
        docs.assertValidFor("openapi_shares_resp", accounts.body());
        assertThat(accounts.body().at("/shares/shares"))
                .extracting(n -> n.get("name").asText())
                .containsExactly("physics", "alice");
    }
}
