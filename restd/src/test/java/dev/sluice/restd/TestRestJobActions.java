package dev.sluice.restd;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.protocol.v1.GresGrant;
import dev.sluice.protocol.v1.JobAction;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.protocol.v1.NodeGres;
import dev.sluice.restd.RestFixture.Answer;
import dev.sluice.restd.slurm.ApiVersion;
import org.junit.jupiter.api.Test;

/**
 * GET jobs/state/, GET resources/{job_id}, POST job/allocate and the v0.0.45 requeue endpoints,
 * in each data parser version that has them, each answer checked against its schema.
 */
class TestRestJobActions extends EveryVersion {

    private int submit() {
        return rest.as("POST", V + "job/submit", "{\"job\":{\"script\":\"#!/bin/sh\\n\"}}")
                .body()
                .get("job_id")
                .asInt();
    }

    /** Job {@code id} as the controller holds it once it runs on n1 (two cores of two threads) and n2. */
    private void running(int id) {
        JobInfo job = rest.controller.jobs.get(id);
        rest.controller.jobs.put(
                id,
                job.toBuilder()
                        .setState(JobState.RUNNING)
                        .setNodeList("n[1-2]")
                        .addNodeGres(NodeGres.newBuilder()
                                .setNode("n1")
                                .addAllCpuIds(java.util.List.of(0, 1, 2, 3))
                                .setMemoryMb(2000)
                                .addGrants(GresGrant.newBuilder()
                                        .setName("gpu")
                                        .setType("a100")
                                        .setCount(2)
                                        .addIndices(0)
                                        .addIndices(1)))
                        .addNodeGres(
                                NodeGres.newBuilder().setNode("n2").addCpuIds(3).setMemoryMb(1000))
                        .build());
        rest.controller.nodes.put(
                "n1",
                rest.controller.nodes.get("n1").toBuilder()
                        .setThreadsPerCore(2)
                        .setCoresPerSocket(2)
                        .build());
    }

    @Test
    void jobStatesAreTheCompactListFilteredByJobId() {
        int first = submit();
        int second = submit();
        running(second);
        Answer all = rest.as("GET", V + "jobs/state/", null);
        assertThat(all.status()).isEqualTo(200);
        docs.assertValidFor("openapi_job_info_resp", all.body());
        assertThat(all.body().get("jobs"))
                .extracting(j -> j.get("job_id").asInt())
                .containsExactly(first, second);
        assertThat(all.body().at("/jobs/1/job_state").toString()).isEqualTo("[\"RUNNING\"]");
        // Only the id and state: none of the job's description.
        assertThat(all.body().at("/jobs/0").has("name")).isFalse();
        assertThat(all.body().at("/last_update/number").asLong()).isEqualTo(1_700_000_100L);

        Answer one = rest.as("GET", V + "jobs/state?job_id=" + second + ",4242", null);
        assertThat(one.status()).isEqualTo(200);
        docs.assertValidFor("openapi_job_info_resp", one.body());
        assertThat(one.body().get("jobs"))
                .extracting(j -> j.get("job_id").asInt())
                .containsExactly(second);
        assertThat(rest.controller.seen.getLast().request().getGetJobs().getFamilyIdsList())
                .containsExactly(second, 4242);

        Answer bad = rest.as("GET", V + "jobs/state/?job_id=x1", null);
        assertThat(bad.status()).isEqualTo(422);
        docs.assertValidFor("openapi_job_info_resp", bad.body());
        assertThat(bad.body().at("/errors/0/error_number").asInt()).isEqualTo(9000);
    }

    @Test
    void resourcesAreEachHeldNodesCoresMemoryAndGres() {
        int id = submit();
        Answer pending = rest.as("GET", V + "resources/" + id, null);
        if (version.compareTo(ApiVersion.V0044) < 0) {
            assertThat(pending.status()).isEqualTo(404);
            return;
        }
        assertThat(pending.status()).isEqualTo(500);
        docs.assertValidFor("openapi_resource_layout_resp", pending.body());
        assertThat(pending.body().at("/errors/0/error").asText()).isEqualTo("Job is pending execution");

        running(id);
        Answer a = rest.as("GET", V + "resources/" + id, null);
        assertThat(a.status()).isEqualTo(200);
        docs.assertValidFor("openapi_resource_layout_resp", a.body());
        JsonNode n1 = a.body().at("/nodes/0");
        assertThat(n1.get("node").asText()).isEqualTo("n1");
        assertThat(n1.get("core_bitmap").asText()).isEqualTo("0-1");
        assertThat(n1.get("mem_alloc").asLong()).isEqualTo(2000);
        assertThat(n1.get("cores_per_socket").asInt()).isEqualTo(2);
        assertThat(n1.at("/gres/0/name").asText()).isEqualTo("gpu");
        assertThat(n1.at("/gres/0/type").asText()).isEqualTo("a100");
        assertThat(n1.at("/gres/0/count").asLong()).isEqualTo(2);
        assertThat(n1.at("/gres/0/index").asText()).isEqualTo("0-1");
        assertThat(a.body().at("/nodes/1/core_bitmap").asText()).isEqualTo("3");

        Answer unknown = rest.as("GET", V + "resources/4242", null);
        assertThat(unknown.status()).isEqualTo(500);
        docs.assertValidFor("openapi_resource_layout_resp", unknown.body());
        assertThat(unknown.body().at("/errors/0/error_number").asInt()).isEqualTo(2017);
    }

    @Test
    void anAllocationIsSubmittedWithoutAScript() {
        String body = "{\"job\":{\"name\":\"interactive\",\"partition\":\"debug\",\"tasks\":2,"
                + "\"current_working_directory\":\"/tmp\"}}";
        docs.assertValidFor("job_alloc_req", OpenApiDocs.parse(body));
        Answer a = rest.as("POST", V + "job/allocate", body);
        assertThat(a.status()).isEqualTo(200);
        docs.assertValidFor("openapi_job_alloc_resp", a.body());
        int id = a.body().get("job_id").asInt();
        assertThat(id).isPositive();
        var sent = rest.controller.seen.getLast().request().getSubmitBatchJob();
        assertThat(sent.getAllocation()).isTrue();
        assertThat(sent.getSpec().getScript().isEmpty()).isTrue();
        assertThat(sent.getSpec().getNumTasks()).isEqualTo(2);
        assertThat(rest.as("GET", V + "job/" + id, null)
                        .body()
                        .at("/jobs/0/name")
                        .asText())
                .isEqualTo("interactive");

        Answer refused = rest.as("POST", V + "job/allocate", "{\"job\":{\"partition\":\"nope\"}}");
        assertThat(refused.status()).isEqualTo(500);
        docs.assertValidFor("openapi_job_alloc_resp", refused.body());
        assertThat(refused.body().at("/errors/0/error_number").asInt()).isEqualTo(2000);

        Answer none = rest.as("POST", V + "job/allocate", "{}");
        assertThat(none.status()).isEqualTo(400);
        docs.assertValidFor("openapi_job_alloc_resp", none.body());
    }

    @Test
    void aRunningJobIsRequeuedAndHeldAsAsked() {
        int id = submit();
        Answer pending = rest.as("GET", V + "job/" + id + "/requeue", null);
        if (version.compareTo(ApiVersion.V0045) < 0) {
            assertThat(pending.status()).isEqualTo(404);
            assertThat(rest.as("POST", V + "jobs/requeue", "{\"jobs\":[\"1\"]}").status())
                    .isEqualTo(404);
            return;
        }
        // A pending job cannot be requeued: the controller's refusal is that job's result.
        assertThat(pending.status()).isEqualTo(500);
        docs.assertValidFor("openapi_job_requeue_resp", pending.body());
        assertThat(pending.body().at("/status/0/error_code").asInt()).isEqualTo(2024);
        assertThat(pending.body().at("/errors/0/error").asText()).isEqualTo("Job is pending execution");

        running(id);
        Answer a = rest.as("GET", V + "job/" + id + "/requeue?Hold", null);
        assertThat(a.status()).isEqualTo(200);
        docs.assertValidFor("openapi_job_requeue_resp", a.body());
        assertThat(a.body().at("/status/0/job_id").asInt()).isEqualTo(id);
        assertThat(a.body().at("/status/0/error_code").asInt()).isZero();
        assertThat(rest.controller.seen.getLast().request().getUpdateJob().getAction())
                .isEqualTo(JobAction.JOB_ACTION_REQUEUEHOLD);
        assertThat(rest.controller.jobs.get(id).getState()).isEqualTo(JobState.PENDING);

        Answer special = rest.as("GET", V + "job/" + id + "/requeue?SpecialExit", null);
        assertThat(special.status()).isEqualTo(422);
        docs.assertValidFor("openapi_job_requeue_resp", special.body());
    }

    @Test
    void jobsAreRequeuedInABatchAndIncompleteSkipsTheOnesNotRunning() {
        if (version.compareTo(ApiVersion.V0045) < 0) {
            return;
        }
        int waiting = submit();
        int runs = submit();
        running(runs);
        String body = "{\"jobs\":[\"" + waiting + "\",\"" + runs + "\"],\"flags\":[\"Incomplete\"]}";
        docs.assertValidFor("openapi_jobs_requeue_query", OpenApiDocs.parse(body));
        Answer a = rest.as("POST", V + "jobs/requeue", body);
        assertThat(a.status()).isEqualTo(200);
        docs.assertValidFor("openapi_jobs_requeue_resp", a.body());
        assertThat(a.body().at("/status/0"))
                .extracting(j -> j.get("job_id").asInt())
                .containsExactly(runs);
        assertThat(rest.controller.seen.getLast().request().getUpdateJob().getJobIdsList())
                .containsExactly(String.valueOf(runs));
        assertThat(rest.controller.seen.getLast().request().getUpdateJob().getAction())
                .isEqualTo(JobAction.JOB_ACTION_REQUEUE);

        running(runs);
        Answer both = rest.as("POST", V + "jobs/requeue", "{\"jobs\":[\"" + waiting + "\",\"" + runs + "\"]}");
        assertThat(both.status()).isEqualTo(500);
        docs.assertValidFor("openapi_jobs_requeue_resp", both.body());
        assertThat(both.body().at("/status/0"))
                .extracting(j -> j.get("error_code").asInt())
                .containsExactly(2024, 0);

        Answer none = rest.as("POST", V + "jobs/requeue", "{\"flags\":[\"Hold\"]}");
        assertThat(none.status()).isEqualTo(422);
        docs.assertValidFor("openapi_jobs_requeue_resp", none.body());
        Answer unknown = rest.as("POST", V + "jobs/requeue", "{\"jobs\":[\"" + runs + "\"],\"flags\":[\"Later\"]}");
        assertThat(unknown.status()).isEqualTo(400);
        docs.assertValidFor("openapi_jobs_requeue_resp", unknown.body());
        assertThat(unknown.body().at("/errors/0/error_number").asInt()).isEqualTo(9001);
    }
}
