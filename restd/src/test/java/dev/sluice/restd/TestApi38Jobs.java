package dev.sluice.restd;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.restd.RestFixture.Answer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * v0.0.38's {@code GET job/{id}} and {@code jobs}: the records are squeue --json's
 * ({@code JobRecord38}, in the cli), read back into the answer as JSON values of their own
 * types. The whole records are compared with slurmrestd 22.05's by compat 141 and 142.
 */
class TestApi38Jobs {
    private static final String V = "/slurm/v0.0.38/";
    private RestFixture rest;
    private int job;

    @BeforeEach
    void up() throws Exception {
        rest = new RestFixture();
        Answer submitted = rest.as(
                "POST",
                V + "job/submit",
                "{\"script\": \"#!/bin/sh\\ntrue\\n\", \"job\": {\"name\": \"rj\", \"current_working_directory\": \"/tmp\"}}");
        job = submitted.body().get("job_id").asInt();
    }

    @AfterEach
    void down() {
        rest.close();
    }

    @Test
    void aJobIsOneRecordWithTypedMembers() {
        Answer a = rest.as("GET", V + "job/" + job, null);
        assertThat(a.status()).as(a.body().toString()).isEqualTo(200);
        JsonNode jobs = a.body().get("jobs");
        assertThat(jobs.size()).isEqualTo(1);
        JsonNode j = jobs.get(0);
        assertThat(j.get("job_id").isIntegralNumber()).isTrue();
        assertThat(j.get("job_id").asInt()).isEqualTo(job);
        assertThat(j.get("name").asText()).isEqualTo("rj");
        assertThat(j.get("current_working_directory").asText()).isEqualTo("/tmp");
        assertThat(j.get("contiguous").isBoolean()).isTrue();
        assertThat(j.get("show_flags").isArray()).isTrue();
        assertThat(j.get("core_spec").isNull()).isTrue();
    }

    @Test
    void everyJobIsListedAndAnUnknownOneIsAnError() {
        Answer all = rest.as("GET", V + "jobs", null);
        assertThat(all.status()).isEqualTo(200);
        assertThat(all.body().get("jobs").findValuesAsText("name")).contains("rj");
        Answer unknown = rest.as("GET", V + "job/77", null);
        assertThat(unknown.status()).isEqualTo(500);
        assertThat(unknown.body().get("errors").get(0).get("description").asText())
                .isEqualTo("Unable to find JobId=77");
    }
}
