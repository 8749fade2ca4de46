package dev.sluice.restd;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.restd.RestFixture.Answer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * dbv0.0.38's one-cluster endpoints and the clusters' add and delete, as slurmrestd 22.05
 * answers them (the answers themselves: compat 181), against a stand-in sluice-dbd that has
 * the cluster {@code test}.
 */
class TestDb38Clusters {
    private static final String DB = "/slurmdb/v0.0.38/";

    @AutoClose
    private final RestFixture rest = RestFixture.started();

    private Answer asRoot(String method, String path, String body) {
        return rest.send(method, path, body, "root", rest.token("root"));
    }

    @Test
    void oneClusterByNameAndAnUnknownOneIsNothingFoundWith500() {
        Answer test = rest.as("GET", DB + "cluster/test", null);
        assertThat(test.status()).as(test.body().toString()).isEqualTo(200);
        assertThat(test.body().at("/clusters/0/name").asText()).isEqualTo("test");
        assertThat(test.body().get("clusters")).hasSize(1);
        assertThat(test.body().at("/clusters/0/controller/port").asInt()).isEqualTo(6817);

        Answer nope = rest.as("GET", DB + "cluster/nope", null);
        assertThat(nope.status()).isEqualTo(500);
        assertThat(nope.body().get("clusters")).isEmpty();
        assertThat(nope.body().at("/errors/0/error_number").asInt()).isEqualTo(9003);
        assertThat(nope.body().at("/errors/0/source").asText()).isEqualTo("slurmdb_clusters_get");
    }

    /** The cluster's TRES as {@code type[/name]=count}, in the answer's order. */
    private static List<String> tres(Answer a) {
        List<String> out = new ArrayList<>();
        for (JsonNode t : a.body().at("/clusters/0/tres")) {
            String name = t.get("name").isNull() ? "" : "/" + t.get("name").asText();
            out.add(t.get("type").asText() + name + "=" + t.get("count").asLong());
        }
        return out;
    }

    @Test
    void aClustersTresAreWhatItsControllerReportedOnceItHas() {
        // Before any report: its nodes' configured TRES (two of cpu=4,mem=8000M), every
        // TRES the database has listed.
        assertThat(tres(rest.as("GET", DB + "cluster/test", null)))
                .containsExactly("cpu=8", "mem=16000", "node=2", "billing=8", "gres/gpu=0");
        // Reported: those and no other, as slurmdbd keeps them. Slurm 22.05 after a controller
        // restart that no longer tracks a license: the license is in the TRES table, not in
        // the cluster's TRES (compat 181 after 287); gres/gpu is such a TRES here.
        rest.controller.accounting.associations.clusterTres.put("test", "billing=4,cpu=4,mem=8000M,node=1");
        assertThat(tres(rest.as("GET", DB + "cluster/test", null)))
                .containsExactly("cpu=4", "mem=8000", "node=1", "billing=4");
    }

    @Test
    void anOperatorAddsAClusterAndAPlainUsersAddChangesNothing() {
        String body = "{\"clusters\": [{\"name\": \"r181\"}]}";
        Answer refused = rest.as("POST", DB + "clusters", body);
        assertThat(refused.status()).isEqualTo(500);
        assertThat(refused.body().has("clusters")).isFalse();
        assertThat(refused.body().at("/errors/0/error_number").asInt()).isEqualTo(2002);
        assertThat(refused.body().at("/errors/0/source").asText()).isEqualTo("slurmdb_clusters_add");
        assertThat(rest.controller.accounting.clusters).containsExactly("test");

        Answer added = asRoot("POST", DB + "clusters", body);
        assertThat(added.status()).as(added.body().toString()).isEqualTo(200);
        assertThat(added.body().get("errors")).isEmpty();
        assertThat(rest.controller.accounting.clusters).containsExactly("test", "r181");
        // Tried, then committed.
        assertThat(rest.controller.accounting.seen.stream()
                        .filter(r -> r.getBodyCase() == DbdRequest.BodyCase.ADD_CLUSTERS)
                        .map(r -> r.getAddClusters().getCommit()))
                .endsWith(false, true);
        assertThat(rest.as("GET", DB + "cluster/r181", null).status()).isEqualTo(200);
    }

    @Test
    void anAddWithoutANameOrWithWhatAControllerReportsIsRefusedBeforeAnyChange() {
        int asked = rest.controller.accounting.seen.size();
        Answer nameless = asRoot("POST", DB + "clusters", "{\"clusters\": [{\"name\": \"\"}]}");
        assertThat(nameless.status()).isEqualTo(500);
        assertThat(nameless.body().at("/errors/0/source").asText()).isEqualTo("slurmdb_clusters_add");
        Answer nodes = asRoot("POST", DB + "clusters", "{\"clusters\": [{\"name\": \"x\", \"nodes\": \"n1\"}]}");
        assertThat(nodes.status()).isEqualTo(500);
        assertThat(nodes.body().at("/errors/0/description").asText()).contains("'nodes'");
        assertThat(rest.controller.accounting.seen).hasSize(asked);
        assertThat(rest.controller.accounting.clusters).containsExactly("test");
    }

    @Test
    void aDeleteIsRefusedAndDeletesNothing() {
        Answer plain = rest.as("DELETE", DB + "cluster/test", null);
        assertThat(plain.status()).isEqualTo(500);
        assertThat(plain.body().get("deleted_clusters")).isEmpty();
        assertThat(plain.body().at("/errors/0/error_number").asInt()).isEqualTo(2002);
        assertThat(plain.body().at("/errors/0/source").asText()).isEqualTo("slurmdb_clusters_remove");

        // sluice-dbd deletes no cluster: an operator gets its refusal.
        Answer root = asRoot("DELETE", DB + "cluster/test", null);
        assertThat(root.status()).isEqualTo(500);
        assertThat(root.body().get("deleted_clusters")).isEmpty();
        assertThat(root.body().at("/errors/0/source").asText()).isEqualTo("slurmdb_clusters_remove");
        assertThat(rest.controller.accounting.clusters).containsExactly("test");
    }
}
