package dev.sluice.restd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.JobAction;
import dev.sluice.restd.RestFixture.Answer;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * v0.0.38's {@code POST job/{id}} and {@code diag} against a stand-in controller: what reaches
 * the controller and what does not. The answers themselves are compared with slurmrestd 22.05's
 * by the differential suite (compat 150 and 151).
 */
class TestApi38Updates {
    private static final String V = "/slurm/v0.0.38/";
    private RestFixture rest;
    private int job;

    @BeforeEach
    void up() throws Exception {
        rest = new RestFixture();
        Answer submitted = rest.as(
                "POST",
                V + "job/submit",
                "{\"script\": \"#!/bin/sh\\ntrue\\n\", \"job\": {\"current_working_directory\": \"/tmp\"}}");
        job = submitted.body().get("job_id").asInt();
        rest.controller.seen.clear();
    }

    @AfterEach
    void down() {
        rest.close();
    }

    private List<ClientRequest> updates() {
        return rest.controller.seen.stream()
                .map(FakeController.Seen::request)
                .filter(ClientRequest::hasUpdateJob)
                .toList();
    }

    @Test
    void changesGoOutAsScontrolUpdateSendsThemAndANameIsNot() {
        Answer a = rest.as(
                "POST",
                V + "job/" + job,
                "{\"time_limit\": \"1:30:00\", \"comment\": \"c\", \"nice\": 10, \"name\": \"x\", \"hold\": true}");
        assertThat(a.status()).as(a.body().toString()).isEqualTo(200);
        assertThat(a.body().get("errors").size()).isZero();
        assertThat(updates()).hasSize(2);
        var changes = updates().get(0).getUpdateJob().getChanges();
        assertThat(changes.getTimeLimit()).isEqualTo(90);
        assertThat(changes.getComment()).isEqualTo("c");
        assertThat(changes.getNice()).isEqualTo(10);
        assertThat(changes.hasName()).isFalse();
        assertThat(updates().get(1).getUpdateJob().getAction()).isEqualTo(JobAction.JOB_ACTION_HOLD);
        assertThat(rest.controller.jobs.get(job).getTimeLimitMinutes()).isEqualTo(90);
    }

    @Test
    void anUnknownKeyOrATimeThatIsNoneChangesNothing() {
        Answer unknown = rest.as("POST", V + "job/" + job, "{\"bogus\": 1, \"comment\": \"c\"}");
        assertThat(unknown.status()).isEqualTo(200);
        assertThat(unknown.body().at("/errors/0/description").asText()).isEqualTo("Unknown key \"bogus\"");
        assertThat(unknown.body().at("/errors/1/error_number").asInt()).isEqualTo(9001);
        assertThat(unknown.body().at("/errors/1/description").asText()).matches("job parsing failed for \\[.+\\]:\\d+");
        Answer badTime = rest.as("POST", V + "job/" + job, "{\"time_limit\": \"abc\"}");
        assertThat(badTime.status()).isEqualTo(200);
        assertThat(badTime.body().get("errors").size()).isEqualTo(3);
        assertThat(badTime.body().at("/errors/0/error").asText()).isEqualTo("Invalid time specification");
        Answer empty = rest.as("POST", V + "job/" + job, null);
        assertThat(empty.status()).isEqualTo(200);
        assertThat(empty.body().get("errors").size()).isZero();
        assertThat(updates()).isEmpty();
    }

    @Test
    void theControllersRefusalIsA500NamingTheClient() {
        Answer a = rest.as("POST", V + "job/77", "{\"comment\": \"c\"}");
        assertThat(a.status()).isEqualTo(500);
        assertThat(a.body().at("/errors/0/error_number").asInt()).isEqualTo(2017);
        assertThat(a.body().at("/errors/0/description").asText()).matches("job update from \\[.+\\]:\\d+ failed");
        assertThat(a.body().at("/errors/0/source").asText()).isEqualTo("_parse_job_list");
    }

    @Test
    void diagIsTheControllersStatisticsFlat() {
        Answer a = rest.as("GET", V + "diag", null);
        assertThat(a.status()).isEqualTo(200);
        var s = a.body().get("statistics");
        assertThat(s.get("jobs_submitted").asInt()).isEqualTo(3);
        assertThat(s.get("schedule_cycle_total").asInt()).isEqualTo(4);
        assertThat(s.get("schedule_cycle_mean").asInt()).isEqualTo(250);
        assertThat(s.get("schedule_cycle_mean_depth").asInt()).isEqualTo(2);
        assertThat(s.get("schedule_cycle_per_minute").asInt()).isEqualTo(0);
        assertThat(s.at("/rpcs_by_message_type/0/message_type").asText()).isEqualTo("REQUEST_JOB_INFO");
        assertThat(s.at("/rpcs_by_message_type/0/average_time").asInt()).isEqualTo(100);
        assertThat(s.at("/rpcs_by_user/0/user").asText()).isEqualTo("alice");
        assertThat(s.get("bf_cycle_mean").asInt()).isZero();
    }
}
