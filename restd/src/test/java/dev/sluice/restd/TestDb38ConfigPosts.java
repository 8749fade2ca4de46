package dev.sluice.restd;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.restd.RestFixture.Answer;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * dbv0.0.38's POST of TRES, wckeys and a whole configuration in front of a stand-in sluice-dbd:
 * the refusals 22.05 answers (compat 203, 204, 205) and that a refused request changes nothing.
 */
class TestDb38ConfigPosts {
    private static final String DB = "/slurmdb/v0.0.38/";

    @AutoClose
    private final RestFixture rest = RestFixture.started();

    private Answer asRoot(String method, String path, String body) {
        return rest.send(method, path, body, "root", rest.token("root"));
    }

    private List<DbdRequest> changes() {
        return rest.controller.accounting.seen.stream()
                .filter(r -> switch (r.getBodyCase()) {
                    case LIST_ASSOC, LIST_QOS, LIST_TRES -> false;
                    default -> true;
                })
                .toList();
    }

    private static List<String> errors(Answer a, String field) {
        return StreamSupport.stream(a.body().get("errors").spliterator(), false)
                .map(e -> e.path(field).asText())
                .toList();
    }

    @Test
    void tresAreRefusedAsNotSupportedWhoeverAsksAndAnUnreadableBodyInPlainText() {
        String body = "{\"tres\":[{\"type\":\"gres\",\"name\":\"fpga\"}]}";
        for (Answer a : List.of(asRoot("POST", DB + "tres", body), rest.as("POST", DB + "tres", body))) {
            assertThat(a.status()).isEqualTo(500);
            JsonNode e = a.body().at("/errors/0");
            assertThat(e.path("error_number").asInt()).isEqualTo(2036);
            assertThat(e.path("description").asText()).isEqualTo("Updating TRES is not currently supported.");
            assertThat(e.has("source")).isFalse();
        }
        Answer garbage = asRoot("POST", DB + "tres", "this is no json");
        assertThat(garbage.status()).isEqualTo(400);
        assertThat(garbage.body().path("text").asText()).isEqualTo("Unable to parse query.");
        assertThat(changes()).isEmpty();
    }

    @Test
    void aWckeyIsRefusedToAPlainUserWith2002AndToAnOperatorWithoutANumber() {
        String body = "{\"wckeys\":[{\"name\":\"w1\",\"cluster\":\"test\",\"user\":\"alice\"}]}";
        Answer alice = rest.as("POST", DB + "wckeys", body);
        assertThat(alice.status()).isEqualTo(500);
        assertThat(errors(alice, "description")).first().isEqualTo("Missing required field 'id'");
        assertThat(errors(alice, "error_number")).containsExactly("", "2002");
        Answer root = asRoot("POST", DB + "wckeys", body);
        assertThat(root.status()).isEqualTo(500);
        assertThat(errors(root, "error_number")).containsExactly("", "-1");
        assertThat(errors(root, "source")).containsExactly("_parser_run", "slurmdb_wckeys_add");
        Answer empty = asRoot("POST", DB + "wckeys", "{}");
        assertThat(empty.status()).isEqualTo(400);
        assertThat(errors(empty, "error_number")).containsExactly("9200");
        assertThat(errors(empty, "source")).containsExactly("wckeys");
        assertThat(changes()).isEmpty();
    }

    @Test
    void aConfigurationWithoutItsWckeysIsReadWholeThenRefusedChangingNothing() {
        Answer a = asRoot(
                "POST",
                DB + "config",
                "{\"accounts\":[{\"name\":\"chem\"}],\"users\":[{\"name\":\"carol\"}],"
                        + "\"QOS\":[{\"name\":\"q9\"}]}");
        assertThat(a.status()).as(a.body().toString()).isEqualTo(400);
        assertThat(errors(a, "source")).containsExactly("clusters", "wckeys", "");
        assertThat(errors(a, "error_number")).containsExactly("9200", "9200", "9000");
        assertThat(errors(a, "description")).last().isEqualTo("refusing to commit after error");
        assertThat(changes()).isEmpty();
        assertThat(rest.as("GET", DB + "qos/q9", null).body().get("QOS")).isEmpty();
    }

    @Test
    void aPlainUsersConfigurationIsRefusedAtItsClustersBeforeAnythingElseIsRead() {
        Answer a = rest.as("POST", DB + "config", "{\"accounts\":[{\"name\":\"chem\"}],\"QOS\":[{\"name\":\"q9\"}]}");
        assertThat(a.status()).isEqualTo(500);
        assertThat(errors(a, "source")).containsExactly("clusters", "slurmdb_clusters_add", "");
        assertThat(errors(a, "error_number")).containsExactly("9200", "2002", "2002");
        assertThat(rest.controller.accounting.seen).noneMatch(r -> r.getBodyCase() == DbdRequest.BodyCase.LIST_QOS);
        assertThat(changes()).isEmpty();
    }

    @Test
    void aWholeConfigurationIsTriedAndAnsweredButNothingIsCommitted() {
        Answer a = asRoot(
                "POST",
                DB + "config",
                "{\"clusters\":[],\"wckeys\":[],\"users\":[],\"associations\":[],"
                        + "\"tres\":[{\"type\":\"gres\",\"name\":\"fpga\"}],"
                        + "\"accounts\":[{\"name\":\"chem\"}],\"QOS\":[{\"name\":\"q9\",\"priority\":3}]}");
        assertThat(a.status()).as(a.body().toString()).isEqualTo(200);
        assertThat(a.body().get("errors")).isEmpty();
        List<DbdRequest> asked = changes();
        assertThat(asked)
                .extracting(DbdRequest::getBodyCase)
                .containsExactly(DbdRequest.BodyCase.ADD_ACCOUNTS, DbdRequest.BodyCase.ADD_QOS);
        assertThat(asked.get(0).getAddAccounts().getCommit()).isFalse();
        assertThat(asked.get(1).getAddQos().getCommit()).isFalse();
        assertThat(rest.as("GET", DB + "qos/q9", null).body().get("QOS")).isEmpty();
    }

    @Test
    void aConfigurationWithoutItsUsersFailsThereThoughAPostOfUsersWouldNot() {
        Answer a = asRoot("POST", DB + "config", "{\"clusters\":[],\"wckeys\":[],\"accounts\":[{\"name\":\"chem\"}]}");
        assertThat(a.status()).isEqualTo(400);
        assertThat(errors(a, "source")).containsExactly("users", "");
        assertThat(errors(a, "error_number")).containsExactly("9200", "9000");
        assertThat(changes()).isEmpty();
    }
}
