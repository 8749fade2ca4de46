package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.restd.OpenApiDocs;
import dev.sluice.restd.slurm.ApiVersion;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The endpoints pollers and operators use beside the queue, in front of a real cluster: nodes
 * drained and resumed by one {@code POST nodes/}, the compact {@code jobs/state} list, in every
 * data parser version; and v0.0.45's allocation, resource layout, requeue and fair-share tree,
 * each answer checked against Slurm's published schema of its version.
 */
class TestRestBatchEndToEnd extends RestClusterTest {
    @ParameterizedTest
    @EnumSource(ApiVersion.class)
    void nodesAreDrainedAndResumedByOneBatchUpdate(ApiVersion v) throws Exception {
        OpenApiDocs docs = OpenApiDocs.of(v);
        RestCluster.Answer nodes = api.send("GET", v.slurmPrefix() + "nodes", null);
        List<String> names = new ArrayList<>();
        nodes.body()
                .get("nodes")
                .forEach(n -> names.add(RestCluster.quote(n.get("name").asText())));
        String drain = "{\"name\": " + names + ", \"state\": [\"DRAIN\"], \"reason\": \"batch rest\"}";
        docs.assertValidFor("update_node_msg", OpenApiDocs.parse(drain));
        RestCluster.Answer drained = api.send("POST", v.slurmPrefix() + "nodes/", drain);
        assertThat(drained.status()).as(drained.body().toString()).isEqualTo(200);
        docs.assertValidFor("openapi_resp", drained.body());
        RestCluster.Answer after = api.send("GET", v.slurmPrefix() + "nodes", null);
        docs.assertValidFor("openapi_nodes_resp", after.body());
        for (JsonNode n : after.body().get("nodes")) {
            assertThat(n.get("state").toString()).contains("DRAIN");
            assertThat(n.get("reason").asText()).isEqualTo("batch rest");
        }
        assertThat(cluster.command("sinfo", "-h", "-o", "%t").out()).matches("(drain|drng)\\n");

        RestCluster.Answer resumed =
                api.send("POST", v.slurmPrefix() + "nodes", "{\"name\": " + names + ", \"state\": [\"RESUME\"]}");
        assertThat(resumed.status()).as(resumed.body().toString()).isEqualTo(200);
        docs.assertValidFor("openapi_resp", resumed.body());
        for (JsonNode n :
                api.send("GET", v.slurmPrefix() + "nodes", null).body().get("nodes")) {
            assertThat(n.get("state").toString()).doesNotContain("DRAIN");
        }
    }

    @ParameterizedTest
    @EnumSource(ApiVersion.class)
    void jobStatesListTheJobsAsked(ApiVersion v) throws Exception {
        OpenApiDocs docs = OpenApiDocs.of(v);
        int job = api.submit(v, "#!/bin/sh\nsleep 300\n", cluster.workDir().resolve("states.out"));
        RestCluster.Answer one = api.send("GET", v.slurmPrefix() + "jobs/state/?job_id=" + job, null);
        assertThat(one.status()).as(one.body().toString()).isEqualTo(200);
        docs.assertValidFor("openapi_job_info_resp", one.body());
        assertThat(one.body().get("jobs")).hasSize(1);
        assertThat(one.body().at("/jobs/0/job_id").asInt()).isEqualTo(job);
        assertThat(one.body().at("/jobs/0/job_state/0").asText()).isIn("PENDING", "RUNNING");

        RestCluster.Answer all = api.send("GET", v.slurmPrefix() + "jobs/state", null);
        docs.assertValidFor("openapi_job_info_resp", all.body());
        assertThat(all.body().get("jobs"))
                .extracting(j -> j.get("job_id").asInt())
                .contains(job);

        assertThat(api.send("DELETE", v.slurmPrefix() + "job/" + job, null).status())
                .isEqualTo(200);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> api.send("GET", v.slurmPrefix() + "jobs/state?job_id=" + job, null)
                        .body()
                        .at("/jobs/0/job_state/0")
                        .asText()
                        .equals("CANCELLED"));
    }

    @Test
    void anAllocationHoldsResourcesIsRequeuedAndSharesAreListed() throws Exception {
        ApiVersion v = ApiVersion.V0045;
        OpenApiDocs docs = OpenApiDocs.of(v);
        String body = "{\"job\": {\"name\": \"alloc\", \"tasks\": 1, \"current_working_directory\": "
                + RestCluster.quote(cluster.workDir().toString())
                + ", \"time_limit\": {\"set\": true, \"infinite\": false, \"number\": 5}}}";
        RestCluster.Answer allocated = api.send("POST", v.slurmPrefix() + "job/allocate", body);
        assertThat(allocated.status()).as(allocated.body().toString()).isEqualTo(200);
        docs.assertValidFor("openapi_job_alloc_resp", allocated.body());
        int alloc = allocated.body().get("job_id").asInt();
        await().atMost(Duration.ofSeconds(30)).until(() -> api.state(v, alloc).equals("RUNNING"));
        RestCluster.Answer layout = api.send("GET", v.slurmPrefix() + "resources/" + alloc, null);
        assertThat(layout.status()).as(layout.body().toString()).isEqualTo(200);
        docs.assertValidFor("openapi_resource_layout_resp", layout.body());
        assertThat(layout.body().at("/nodes/0/node").asText())
                .isEqualTo(api.send("GET", v.slurmPrefix() + "job/" + alloc, null)
                        .body()
                        .at("/jobs/0/nodes")
                        .asText());
        assertThat(layout.body().at("/nodes/0/core_bitmap").asText()).isNotEmpty();
        assertThat(api.send("DELETE", v.slurmPrefix() + "job/" + alloc, null).status())
                .isEqualTo(200);

        int batch = api.submit(v, "#!/bin/sh\nsleep 300\n", cluster.workDir().resolve("requeue.out"));
        await().atMost(Duration.ofSeconds(30)).until(() -> api.state(v, batch).equals("RUNNING"));
        RestCluster.Answer requeued = api.send("GET", v.slurmPrefix() + "job/" + batch + "/requeue?Hold", null);
        assertThat(requeued.status()).as(requeued.body().toString()).isEqualTo(200);
        docs.assertValidFor("openapi_job_requeue_resp", requeued.body());
        assertThat(requeued.body().at("/status/0/error_code").asInt()).isZero();
        await().atMost(Duration.ofSeconds(30)).until(() -> api.state(v, batch).equals("PENDING"));
        assertThat(cluster.command("scontrol", "show", "job", "" + batch).out()).contains("Restarts=1");
        assertThat(api.send("DELETE", v.slurmPrefix() + "job/" + batch, null).status())
                .isEqualTo(200);

        RestCluster.Answer shares = api.send("GET", v.slurmPrefix() + "shares", null);
        assertThat(shares.status()).as(shares.body().toString()).isEqualTo(200);
        docs.assertValidFor("openapi_shares_resp", shares.body());
        assertThat(shares.body().at("/shares/shares/0/name").asText()).isEqualTo("root");
    }
}
