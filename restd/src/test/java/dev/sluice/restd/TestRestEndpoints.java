package dev.sluice.restd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.JobAction;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.restd.RestFixture.Answer;
import dev.sluice.restd.slurm.ApiVersion;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every endpoint of this slice over HTTP, in each data parser version served, each answer
 * checked against that version's schema from Slurm.
 */
class TestRestEndpoints extends EveryVersion {

    private void assertValid(String name, com.fasterxml.jackson.databind.JsonNode answer) {
        docs.assertValidFor(name.replaceFirst("^v0\\.0\\.44_", ""), answer);
    }

    @Test
    void pingNamesTheControllerThatAnswered() {
        Answer a = rest.as("GET", V + "ping/", null);
        assertThat(a.status()).isEqualTo(200);
        assertValid("v0.0.44_openapi_ping_array_resp", a.body());
        assertThat(a.body().at("/pings/0/hostname").asText()).isEqualTo("ctl1");
        assertThat(a.body().at("/pings/0/responding").asBoolean()).isTrue();
        assertThat(a.body().at("/meta/plugin/data_parser").asText()).isEqualTo(version.dataParser());
        // v0.0.45 replaced the deprecated pinged and mode by status.
        assertThat(a.body()
                        .at("/pings/0/" + (version == ApiVersion.V0045 ? "status" : "pinged"))
                        .asText())
                .isEqualTo("UP");
        assertThat(a.body().at("/meta/client/user").asText()).isEqualTo("alice");
        assertThat(a.body().get("errors")).isEmpty();
    }

    @Test
    void diagCountsPendingJobs() {
        rest.as("POST", V + "job/submit", "{\"job\":{\"script\":\"#!/bin/sh\\ntrue\\n\"}}");
        Answer a = rest.as("GET", V + "diag", null);
        assertThat(a.status()).isEqualTo(200);
        assertValid("v0.0.44_openapi_diag_resp", a.body());
        assertThat(a.body().at("/statistics/jobs_pending").asInt()).isEqualTo(1);
        assertThat(a.body().at("/statistics/req_time_start/number").asLong()).isEqualTo(1_700_000_000L);
    }

    @Test
    void submittedJobIsListedWithItsDescription() {
        String body = """
                {"script": "#!/bin/sh\\nsleep 1\\n",
                 "job": {"name": "hello", "partition": "debug", "tasks": 2, "nodes": "1-2", "cpus_per_task": 1,
                         "time_limit": {"set": true, "infinite": false, "number": 10},
                         "environment": ["PATH=/bin:/usr/bin", "A=b=c"],
                         "current_working_directory": "/tmp", "standard_output": "/tmp/out.%j",
                         "account": "acct", "qos": "normal"}}""";
        Answer submitted = rest.as("POST", V + "job/submit", body);
        assertThat(submitted.status()).isEqualTo(200);
        assertValid("v0.0.44_openapi_job_submit_response", submitted.body());
        int id = submitted.body().get("job_id").asInt();
        assertThat(id).isPositive();

        JobSpec sent =
                rest.controller.seen.getLast().request().getSubmitBatchJob().getSpec();
        assertThat(sent.getScript().toString(StandardCharsets.UTF_8)).isEqualTo("#!/bin/sh\nsleep 1\n");
        assertThat(sent.getNumTasks()).isEqualTo(2);
        assertThat(sent.getMinNodes()).isEqualTo(1);
        assertThat(sent.getMaxNodes()).isEqualTo(2);
        assertThat(sent.getTimeLimitMinutes()).isEqualTo(10);
        assertThat(sent.getEnvironmentMap().get("A").toStringUtf8()).isEqualTo("b=c");
        assertThat(sent.getAccount()).isEqualTo("acct");
        assertThat(sent.getQos()).isEqualTo("normal");

        Answer one = rest.as("GET", V + "job/" + id, null);
        assertThat(one.status()).isEqualTo(200);
        assertValid("v0.0.44_openapi_job_info_resp", one.body());
        assertThat(one.body().at("/jobs/0/job_id").asInt()).isEqualTo(id);
        assertThat(one.body().at("/jobs/0/name").asText()).isEqualTo("hello");
        assertThat(one.body().at("/jobs/0/job_state/0").asText()).isEqualTo("PENDING");
        assertThat(one.body().at("/jobs/0/time_limit/number").asInt()).isEqualTo(10);
        assertThat(one.body().at("/jobs/0/user_name").asText()).isEqualTo("alice");

        Answer all = rest.as("GET", V + "jobs/", null);
        assertValid("v0.0.44_openapi_job_info_resp", all.body());
        assertThat(all.body().get("jobs")).hasSize(1);
    }

    @Test
    void unsupportedFieldsAreWarnedAboutNotDropped() {
        Answer a =
                rest.as("POST", V + "job/submit", "{\"job\":{\"script\":\"#!/bin/sh\\n\",\"x11\":[\"BATCH_NODE\"]}}");
        assertThat(a.status()).isEqualTo(200);
        assertValid("v0.0.44_openapi_job_submit_response", a.body());
        assertThat(a.body().at("/warnings/0/description").asText()).contains("x11");
    }

    @Test
    void controllerRefusalBecomesSlurmError() {
        Answer a = rest.as("POST", V + "job/submit", "{\"job\":{\"script\":\"#!/bin/sh\\n\",\"partition\":\"nope\"}}");
        assertThat(a.status()).isEqualTo(500);
        assertValid("v0.0.44_openapi_job_submit_response", a.body());
        assertThat(a.body().at("/errors/0/error_number").asInt()).isEqualTo(2000);
        assertThat(a.body().at("/errors/0/error").asText()).isEqualTo("Invalid partition name specified");
    }

    @Test
    void unknownJobIsAnError() {
        Answer a = rest.as("GET", V + "job/4242", null);
        assertThat(a.status()).isEqualTo(500);
        assertValid("v0.0.44_openapi_job_info_resp", a.body());
        assertThat(a.body().at("/errors/0/error_number").asInt()).isEqualTo(2017);
    }

    @Test
    void deleteCancelsAndSignalIsSentAsAsked() {
        int id = rest.as("POST", V + "job/submit", "{\"job\":{\"script\":\"#!/bin/sh\\n\"}}")
                .body()
                .get("job_id")
                .asInt();
        Answer signalled = rest.as("DELETE", V + "job/" + id + "?signal=SIGUSR1", null);
        assertThat(signalled.status()).isEqualTo(200);
        assertValid("v0.0.44_openapi_kill_job_resp", signalled.body());
        ClientRequest sent = rest.controller.seen.getLast().request();
        assertThat(sent.getSignalJob().getSignal()).isEqualTo(10);
        assertThat(sent.getSignalJob().getCancel()).isFalse();

        Answer cancelled = rest.as("DELETE", V + "job/" + id, null);
        assertThat(cancelled.status()).isEqualTo(200);
        assertValid("v0.0.44_openapi_kill_job_resp", cancelled.body());
        assertThat(cancelled.body().at("/status/0/job_id/number").asInt()).isEqualTo(id);
        assertThat(rest.as("GET", V + "job/" + id, null)
                        .body()
                        .at("/jobs/0/job_state/0")
                        .asText())
                .isEqualTo("CANCELLED");

        Answer bad = rest.as("DELETE", V + "job/" + id + "?signal=NOPE", null);
        assertThat(bad.status()).isEqualTo(422);
        assertValid("v0.0.44_openapi_kill_job_resp", bad.body());
        assertThat(bad.body().at("/errors/0/error_number").asInt()).isEqualTo(9000);
    }

    @Test
    void nodesAreListedAndDrainedAndResumed() {
        Answer all = rest.as("GET", V + "nodes/", null);
        assertThat(all.status()).isEqualTo(200);
        assertValid("v0.0.44_openapi_nodes_resp", all.body());
        assertThat(all.body().get("nodes")).hasSize(2);
        assertThat(all.body().at("/nodes/0/state/0").asText()).isEqualTo("IDLE");

        Answer drain = rest.as("POST", V + "node/n1", "{\"state\":[\"DRAIN\"],\"reason\":\"disk\"}");
        assertThat(drain.status()).isEqualTo(200);
        assertValid("v0.0.44_openapi_resp", drain.body());
        Answer one = rest.as("GET", V + "node/n1", null);
        assertValid("v0.0.44_openapi_nodes_resp", one.body());
        assertThat(one.body().at("/nodes/0/state").toString()).isEqualTo("[\"IDLE\",\"DRAIN\"]");
        assertThat(one.body().at("/nodes/0/reason").asText()).isEqualTo("disk");
        assertThat(one.body().at("/nodes/0/reason_set_by_user").asText()).isEqualTo("alice");

        rest.as("POST", V + "node/n1", "{\"state\":[\"RESUME\"]}");
        assertThat(rest.as("GET", V + "node/n1", null)
                        .body()
                        .at("/nodes/0/state")
                        .toString())
                .isEqualTo("[\"IDLE\"]");

        Answer unknown = rest.as("GET", V + "node/zz", null);
        assertThat(unknown.status()).isEqualTo(500);
        assertValid("v0.0.44_openapi_nodes_resp", unknown.body());
        assertThat(unknown.body().at("/errors/0/error_number").asInt()).isEqualTo(2018);
    }

    @Test
    void partitionsAreListed() {
        Answer all = rest.as("GET", V + "partitions/", null);
        assertThat(all.status()).isEqualTo(200);
        assertValid("v0.0.44_openapi_partition_resp", all.body());
        assertThat(all.body().at("/partitions/0/name").asText()).isEqualTo("debug");
        assertThat(all.body().at("/partitions/0/maximums/time/infinite").asBoolean())
                .isTrue();
        Answer one = rest.as("GET", V + "partition/debug", null);
        assertValid("v0.0.44_openapi_partition_resp", one.body());
        assertThat(one.body().get("partitions")).hasSize(1);
    }

    @Test
    void aJobIsUpdatedHeldAndReleased() {
        int id = rest.as("POST", V + "job/submit", "{\"job\":{\"script\":\"#!/bin/sh\\n\"}}")
                .body()
                .get("job_id")
                .asInt();
        Answer updated = rest.as(
                "POST",
                V + "job/" + id,
                "{\"time_limit\":{\"set\":true,\"infinite\":false,\"number\":7},\"name\":\"renamed\",\"hold\":true}");
        assertThat(updated.status()).isEqualTo(200);
        assertValid("v0.0.44_openapi_job_post_response", updated.body());
        assertThat(updated.body().at("/results/0/job_id").asInt()).isEqualTo(id);
        assertThat(updated.body().at("/results/0/error_code").asInt()).isZero();
        Answer seen = rest.as("GET", V + "job/" + id, null);
        assertThat(seen.body().at("/jobs/0/time_limit/number").asInt()).isEqualTo(7);
        assertThat(seen.body().at("/jobs/0/name").asText()).isEqualTo("renamed");
        assertThat(seen.body().at("/jobs/0/state_reason").asText()).isEqualTo("JobHeldUser");
        // The changes went as one scontrol update, the hold as scontrol hold after it.
        List<ClientRequest> sent = rest.controller.seen.stream()
                .map(FakeController.Seen::request)
                .filter(ClientRequest::hasUpdateJob)
                .toList();
        assertThat(sent)
                .extracting(r -> r.getUpdateJob().getAction())
                .containsExactly(JobAction.JOB_ACTION_UPDATE, JobAction.JOB_ACTION_HOLD);

        rest.as("POST", V + "job/" + id, "{\"hold\":false}");
        assertThat(rest.as("GET", V + "job/" + id, null)
                        .body()
                        .at("/jobs/0/state_reason")
                        .asText())
                .isEqualTo("Priority");
    }

    @Test
    void anUpdateOfNothingOrOfAnUnknownJobIsRefused() {
        Answer nothing = rest.as("POST", V + "job/100", "{\"x11\":[\"BATCH_NODE\"]}");
        assertThat(nothing.status()).isEqualTo(400);
        assertValid("v0.0.44_openapi_job_post_response", nothing.body());
        assertThat(nothing.body().at("/errors/0/error_number").asInt()).isEqualTo(9002);
        Answer wrongType = rest.as("POST", V + "job/100", "{\"name\":7}");
        assertThat(wrongType.status()).isEqualTo(400);
        assertThat(rest.controller.seen).noneMatch(s -> s.request().hasUpdateJob());

        Answer unknown = rest.as("POST", V + "job/4242", "{\"name\":\"x\"}");
        assertThat(unknown.status()).isEqualTo(500);
        assertValid("v0.0.44_openapi_job_post_response", unknown.body());
        assertThat(unknown.body().at("/results/0/error_code").asInt()).isEqualTo(2017);
        assertThat(unknown.body().at("/errors/0/error").asText()).isEqualTo("Invalid job id specified");
    }

    @Test
    void reservationsAsScontrolShowsThem() {
        Answer all = rest.as("GET", V + "reservations", null);
        assertThat(all.status()).isEqualTo(200);
        assertValid("v0.0.44_openapi_reservation_resp", all.body());
        assertThat(all.body().at("/reservations/0/node_list").asText()).isEqualTo("n[1-2]");
        assertThat(all.body().at("/reservations/0/node_count").asInt()).isEqualTo(2);
        assertThat(all.body().at("/reservations/0/users").asText()).isEqualTo("-alice");
        assertThat(all.body().at("/reservations/0/flags/0").asText()).isEqualTo("MAINT");
        assertThat(all.body().at("/reservations/0/start_time/number").asLong()).isEqualTo(1_700_003_600L);

        Answer missing = rest.as("GET", V + "reservation/nosuch", null);
        assertThat(missing.status()).isEqualTo(500);
        assertValid("v0.0.44_openapi_reservation_resp", missing.body());
        assertThat(missing.body().at("/errors/0/error_number").asInt()).isEqualTo(2053);
        assertThat(missing.body().get("reservations")).isEmpty();
    }

    @Test
    void licensesReconfigureAndNodeDelete() {
        Answer licenses = rest.as("GET", V + "licenses", null);
        assertThat(licenses.status()).isEqualTo(200);
        assertValid("v0.0.44_openapi_licenses_resp", licenses.body());
        assertThat(licenses.body().at("/licenses/0/LicenseName").asText()).isEqualTo("matlab");
        assertThat(licenses.body().at("/licenses/0/Free").asInt()).isEqualTo(3);

        Answer reconfigure = rest.as("GET", V + "reconfigure", null);
        assertThat(reconfigure.status()).isEqualTo(200);
        assertValid("v0.0.44_openapi_resp", reconfigure.body());
        assertThat(rest.controller.seen.getLast().request().hasReconfigure()).isTrue();

        Answer deleted = rest.as("DELETE", V + "node/n2", null);
        assertThat(deleted.status()).isEqualTo(200);
        assertValid("v0.0.44_openapi_resp", deleted.body());
        assertThat(rest.as("GET", V + "nodes", null).body().get("nodes")).hasSize(1);
        Answer again = rest.as("DELETE", V + "node/n2", null);
        assertThat(again.status()).isEqualTo(500);
        assertThat(again.body().at("/errors/0/error_number").asInt()).isEqualTo(2018);
    }

    @Test
    void reservationsAreCreatedUpdatedAndDeletedFromV0043() {
        String create = "{\"name\":\"gpu_day\",\"users\":[\"alice\",\"bob\"],\"accounts\":[\"physics\"],"
                + "\"start_time\":{\"set\":true,\"infinite\":false,\"number\":1700003600},"
                + "\"duration\":{\"set\":true,\"infinite\":false,\"number\":90},"
                + "\"node_list\":[\"n1\"],\"core_count\":{\"set\":true,\"number\":2},"
                + "\"flags\":[\"MAINT\",\"NO_DAILY\"],\"comment\":\"c\"}";
        Answer created = rest.as("POST", V + "reservation", create);
        if (version == ApiVersion.V0042) {
            // Slurm's v0.0.42 has no reservation writes.
            assertThat(created.status()).isEqualTo(404);
            assertThat(rest.controller.seen).noneMatch(x -> x.request().hasCreateReservation());
            return;
        }
        assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
        assertValid("v0.0.44_openapi_reservation_mod_resp", created.body());
        assertThat(created.body().at("/reservations/0/name").asText()).isEqualTo("gpu_day");
        assertThat(created.body().at("/warnings/0/description").asText()).contains("comment");
        var spec =
                rest.controller.seen.getLast().request().getCreateReservation().getSpec();
        assertThat(spec.getName()).isEqualTo("gpu_day");
        assertThat(spec.getUsers()).isEqualTo("alice,bob");
        assertThat(spec.getAccounts()).isEqualTo("physics");
        assertThat(spec.getStartTime()).isEqualTo(1_700_003_600L);
        assertThat(spec.getDurationMinutes()).isEqualTo(90);
        assertThat(spec.getNodes()).isEqualTo("n1");
        assertThat(spec.getCoreCount()).isEqualTo(2);
        assertThat(spec.getFlagsList()).containsExactly("MAINT", "-DAILY");
        assertThat(spec.hasEndTime()).isFalse();

        // A name the controller holds is updated, as slurmrestd's "create or update".
        Answer updated =
                rest.as("POST", V + "reservations", "{\"reservations\":[{\"name\":\"maint\",\"duration\":30}]}");
        assertThat(updated.status()).as(updated.body().toString()).isEqualTo(200);
        assertValid("v0.0.44_openapi_reservation_mod_resp", updated.body());
        var update = rest.controller.seen.getLast().request();
        assertThat(update.hasUpdateReservation()).isTrue();
        assertThat(update.getUpdateReservation().getSpec().getDurationMinutes()).isEqualTo(30);

        // One bad description of several: nothing is sent.
        int before = rest.controller.seen.size();
        Answer bad = rest.as(
                "POST",
                V + "reservations",
                "{\"reservations\":[{\"name\":\"a\"},{\"name\":\"b\",\"flags\":\"MAINT\"}]}");
        assertThat(bad.status()).isEqualTo(400);
        assertValid("v0.0.44_openapi_reservation_mod_resp", bad.body());
        assertThat(bad.body().at("/errors/0/error_number").asInt()).isEqualTo(9001);
        assertThat(rest.controller.seen).hasSize(before);

        Answer deleted = rest.as("DELETE", V + "reservation/maint", null);
        assertThat(deleted.status()).isEqualTo(200);
        assertValid("v0.0.44_openapi_resp", deleted.body());
        assertThat(rest.controller
                        .seen
                        .getLast()
                        .request()
                        .getDeleteReservation()
                        .getName())
                .isEqualTo("maint");
        Answer missing = rest.as("DELETE", V + "reservation/nosuch", null);
        assertThat(missing.status()).isEqualTo(500);
        assertValid("v0.0.44_openapi_resp", missing.body());
        assertThat(missing.body().at("/errors/0/error_number").asInt()).isEqualTo(2053);
    }

    @Test
    void unknownPathIsNotFound() {
        Answer a = rest.as("GET", V + "nothing", null);
        assertThat(a.status()).isEqualTo(404);
        assertValid("v0.0.44_openapi_resp", a.body());
    }
}
