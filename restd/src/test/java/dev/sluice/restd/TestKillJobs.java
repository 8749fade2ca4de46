package dev.sluice.restd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.protocol.v1.SignalJobRequest;
import dev.sluice.restd.RestFixture.Answer;
import org.junit.jupiter.api.Test;

/**
 * {@code DELETE jobs} with a {@code kill_jobs_msg}, in each version that has it: the jobs and
 * filters reach the controller as scancel's, each answer valid against that version's schema.
 */
class TestKillJobs extends EveryVersion {

    private int submit() {
        return rest.as("POST", V + "job/submit", "{\"job\":{\"script\":\"#!/bin/sh\\n\"}}")
                .body()
                .get("job_id")
                .asInt();
    }

    private SignalJobRequest sent() {
        return rest.controller.seen.getLast().request().getSignalJob();
    }

    @Test
    void namedJobsAreSignalledEachWithItsStatus() {
        int a = submit();
        int b = submit();
        Answer signalled =
                rest.as("DELETE", V + "jobs/", "{\"jobs\": [\"" + a + "\", \"" + b + "\"], \"signal\": \"SIGUSR1\"}");
        assertThat(signalled.status()).as(signalled.body().toString()).isEqualTo(200);
        docs.assertValidFor("openapi_kill_jobs_resp", signalled.body());
        assertThat(sent().getJobIdsList()).containsExactly("" + a, "" + b);
        assertThat(sent().getSignal()).isEqualTo(10);
        assertThat(sent().getCancel()).isFalse();
        assertThat(signalled.body().at("/status/1/job_id/number").asInt()).isEqualTo(b);
        assertThat(signalled.body().at("/status/1/error/code").asInt()).isZero();

        Answer cancelled = rest.as("DELETE", V + "jobs", "{\"jobs\": [\"" + a + "\"]}");
        assertThat(cancelled.status()).isEqualTo(200);
        assertThat(sent().getCancel()).isTrue();
        assertThat(rest.as("GET", V + "job/" + a, null)
                        .body()
                        .at("/jobs/0/job_state/0")
                        .asText())
                .isEqualTo("CANCELLED");
    }

    @Test
    void filtersGoToTheControllerAsScancelsDo() {
        Answer a = rest.as(
                "DELETE",
                V + "jobs",
                "{\"user_name\": \"alice\", \"job_state\": [\"PENDING\", \"RUNNING\"], \"partition\": \"debug\","
                        + " \"account\": \"physics\", \"job_name\": \"sweep\", \"qos\": \"normal\","
                        + " \"nodes\": [\"n1\", \"n2\"], \"flags\": [\"BATCH_JOB\"], \"signal\": \"TERM\"}");
        assertThat(a.status()).as(a.body().toString()).isEqualTo(200);
        docs.assertValidFor("openapi_kill_jobs_resp", a.body());
        SignalJobRequest s = sent();
        assertThat(s.getJobIdsList()).isEmpty();
        assertThat(s.getUserFilter()).isEqualTo("alice");
        assertThat(s.getStateFilter()).isEqualTo("PENDING,RUNNING");
        assertThat(s.getPartitionFilter()).isEqualTo("debug");
        assertThat(s.getAccountFilter()).isEqualTo("physics");
        assertThat(s.getNameFilter()).isEqualTo("sweep");
        assertThat(s.getQosFilter()).isEqualTo("normal");
        assertThat(s.getNodesFilter()).isEqualTo("n1,n2");
        assertThat(s.getBatchOnly()).isTrue();
        assertThat(s.getSignal()).isEqualTo(15);
    }

    @Test
    void aBodyThatSelectsNothingOrAsksWhatIsNotSupportedIsRefusedUnsent() {
        for (String body : new String[] {
            "{}",
            "{\"signal\": \"KILL\"}",
            "{\"user_id\": \"1000\"}",
            "{\"jobs\": [\"1\"], \"flags\": [\"HURRY\"]}",
            "{\"jobs\": [\"1\"], \"signal\": \"NOPE\"}"
        }) {
            Answer a = rest.as("DELETE", V + "jobs", body);
            assertThat(a.status()).as(body).isEqualTo(422);
            docs.assertValidFor("openapi_kill_jobs_resp", a.body());
            assertThat(a.body().at("/errors/0/error_number").asInt()).isEqualTo(9000);
        }
        assertThat(rest.controller.seen).noneMatch(s -> s.request().hasSignalJob());
    }

    @Test
    void anUnknownJobIsItsOwnFailedStatus() {
        Answer a = rest.as("DELETE", V + "jobs", "{\"jobs\": [\"4242\"]}");
        assertThat(a.status()).isEqualTo(500);
        docs.assertValidFor("openapi_kill_jobs_resp", a.body());
        assertThat(a.body().at("/status/0/error/code").asInt()).isEqualTo(2017);
        assertThat(a.body().at("/errors/0/error_number").asInt()).isEqualTo(2017);
    }
}
