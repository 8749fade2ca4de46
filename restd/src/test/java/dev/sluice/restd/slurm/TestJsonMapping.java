package dev.sluice.restd.slurm;

import static dev.sluice.restd.OpenApiDocs.assertValid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.protocol.v1.NodeInfo;
import dev.sluice.restd.OpenApiDocs;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The mapping between the controller's messages and v0.0.44's JSON, field by field. */
class TestJsonMapping {
    private static JsonNode json(String text) {
        return OpenApiDocs.parse(text);
    }

    private static JobInfo job(JobState state, int waitStatus) {
        return JobInfo.newBuilder()
                .setJobId(7)
                .setState(state)
                .setExitStatus(waitStatus)
                .setTimeLimitMinutes(0xFFFFFFFF)
                .setSpec(JobSpec.newBuilder()
                        .setName("x")
                        .setOwner(Identity.newBuilder().setUid(1000).setGid(100).setUserName("alice")))
                .build();
    }

    @Test
    void numbersAreStructsWithFlags() {
        assertThat(Numbers.set(5).toString()).isEqualTo("{\"set\":true,\"infinite\":false,\"number\":5}");
        assertThat(Numbers.limit32(0xFFFFFFFF).toString()).isEqualTo("{\"set\":false,\"infinite\":true,\"number\":0}");
        assertThat(Numbers.limit32(0).toString()).isEqualTo("{\"set\":false,\"infinite\":false,\"number\":0}");
    }

    @Test
    void requestNumbersAreReadInEitherForm() {
        assertThat(Numbers.read(json("{\"n\":30}").get("n"), "n")).isEqualTo(OptionalLong.of(30));
        assertThat(Numbers.read(json("{\"n\":{\"set\":true,\"number\":30}}").get("n"), "n"))
                .isEqualTo(OptionalLong.of(30));
        assertThat(Numbers.read(json("{\"n\":{\"set\":false,\"number\":30}}").get("n"), "n"))
                .isEmpty();
        assertThat(Numbers.read(json("{\"n\":{\"infinite\":true}}").get("n"), "n"))
                .isEqualTo(OptionalLong.of(Numbers.INFINITE32));
        assertThatThrownBy(() -> Numbers.read(json("{\"n\":\"30\"}").get("n"), "n"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void exitCodesFollowTheWaitStatus() {
        ObjectNode done = JobJson.of(job(JobState.COMPLETED, 0));
        assertThat(done.at("/exit_code/status/0").asText()).isEqualTo("SUCCESS");
        ObjectNode failed = JobJson.of(job(JobState.FAILED, 3 << 8));
        assertThat(failed.at("/exit_code/status/0").asText()).isEqualTo("ERROR");
        assertThat(failed.at("/exit_code/return_code/number").asInt()).isEqualTo(3);
        ObjectNode killed = JobJson.of(job(JobState.CANCELLED, 9));
        assertThat(killed.at("/exit_code/status/0").asText()).isEqualTo("SIGNALED");
        assertThat(killed.at("/exit_code/signal/id/number").asInt()).isEqualTo(9);
        assertThat(killed.at("/exit_code/signal/name").asText()).isEqualTo("KILL");
        ObjectNode pending = JobJson.of(job(JobState.PENDING, 0));
        assertThat(pending.at("/exit_code/status/0").asText()).isEqualTo("PENDING");
        assertThat(pending.at("/time_limit/infinite").asBoolean()).isTrue();
        for (ObjectNode j : new ObjectNode[] {done, failed, killed, pending}) {
            assertValid("v0.0.44_job_info", j);
        }
    }

    @Test
    void nodeStatesOutsideTheEnumAreMappedOrLeftOut() {
        NodeInfo n = NodeInfo.newBuilder()
                .setName("n1")
                .setState("MIXED")
                .addFlags("DRAIN")
                .addFlags("DYNAMIC")
                .addFlags("SOMETHING_NEW")
                .addFlags("REBOOT_CANCEL")
                .build();
        assertThat(NodeJson.states(n).toString())
                .isEqualTo("[\"MIXED\",\"DRAIN\",\"DYNAMIC_NORM\",\"REBOOT_CANCELED\"]");
        assertValid("v0.0.44_node", NodeJson.of(n));
    }

    @Test
    void jobDescriptionIsRead() {
        JobDescription.Parsed p = JobDescription.read(json("""
                {"job": {"script": "#!/bin/sh\\n", "nodes": "2", "time_limit": 15,
                         "environment": ["A=1"], "excluded_nodes": ["n1", "n2"], "requeue": false,
                         "memory_per_node": {"set": true, "number": 1024}, "burst_buffer": "x"}}"""));
        assertThat(p.spec().getMinNodes()).isEqualTo(2);
        assertThat(p.spec().getMaxNodes()).isZero();
        assertThat(p.spec().getTimeLimitMinutes()).isEqualTo(15);
        assertThat(p.spec().getExcludeNodes()).isEqualTo("n1,n2");
        assertThat(p.spec().getRequeueSet()).isTrue();
        assertThat(p.spec().getRequeue()).isFalse();
        assertThat(p.spec().getMemPerNodeMb()).isEqualTo(1024);
        assertThat(p.ignored()).containsExactly("burst_buffer");
    }

    @Test
    void unusableDescriptionsAreRefused() {
        assertThatThrownBy(() -> JobDescription.read(json("{\"job\":{\"name\":\"x\"}}")))
                .hasMessage("Job script not specified");
        assertThatThrownBy(() -> JobDescription.read(json("{\"jobs\":[]}"))).hasMessageContaining("heterogeneous");
        assertThatThrownBy(() -> JobDescription.read(json("{\"job\":{\"script\":\"s\",\"nodes\":\"two\"}}")))
                .hasMessageContaining("nodes");
        assertThatThrownBy(() -> JobDescription.read(json("{\"job\":{\"script\":\"s\",\"environment\":[\"NOEQ\"]}}")))
                .hasMessageContaining("NAME=value");
        assertThatThrownBy(() -> JobDescription.read(json("{\"job\":{\"script\":\"s\",\"tasks\":-1}}")))
                .hasMessageContaining("negative");
        assertThatThrownBy(() -> JobDescription.read(json("{\"job\":{\"script\":7}}")))
                .hasMessageContaining("string");
    }

    /** The schema check itself must catch what it is there for. */
    @Test
    void theSchemaCheckRefusesWrongAnswers() {
        ObjectNode good = JobJson.of(job(JobState.RUNNING, 0));
        assertValid("v0.0.44_job_info", good);
        ObjectNode badState = good.deepCopy();
        badState.putArray("job_state").add("RUNNIN");
        assertThatThrownBy(() -> assertValid("v0.0.44_job_info", badState)).isInstanceOf(AssertionError.class);
        ObjectNode plainNumber = good.deepCopy().put("time_limit", 10);
        assertThatThrownBy(() -> assertValid("v0.0.44_job_info", plainNumber)).isInstanceOf(AssertionError.class);
        ObjectNode misspelled = good.deepCopy().put("user_nmae", "alice");
        assertThatThrownBy(() -> assertValid("v0.0.44_job_info", misspelled)).isInstanceOf(AssertionError.class);
    }
}
