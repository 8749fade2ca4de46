package dev.sluice.protocol.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.common.auth.AuthException;
import dev.sluice.common.auth.ClusterCredentials;
import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.protocol.v1.GresGrant;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.LaunchBatchJobRequest;
import dev.sluice.protocol.v1.LaunchStepRequest;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** A node daemon runs a launch only with the controller's credential for it, for this node, once. */
class TestJobCredentials {
    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
    private static final Identity ALICE =
            Identity.newBuilder().setUid(1001).setGid(1001).setUserName("alice").build();

    private final ClusterCredentials keys = new ClusterCredentials(ClusterKeys.of(TestDaemonAuth.key("k")));
    private final AtomicReference<Instant> now = new AtomicReference<>(NOW);
    private final JobCredentials.Checker node1 = new JobCredentials.Checker(() -> keys, "node1", now::get);

    private static LaunchBatchJobRequest batch() {
        return LaunchBatchJobRequest.newBuilder()
                .setJobId(7)
                .setSpec(JobSpec.newBuilder()
                        .setOwner(ALICE)
                        .setScript(com.google.protobuf.ByteString.copyFromUtf8("#!/bin/sh\nhostname\n")))
                .setCpusOnNode(2)
                .setMemPerNodeMb(1000)
                .addGres(GresGrant.newBuilder().setName("gpu").addIndices(0))
                .putMpsPerGpu(1, 100)
                .putMpsPerGpu(0, 100)
                .build();
    }

    @Test
    void the_controllers_launch_runs_once() {
        LaunchBatchJobRequest signed = JobCredentials.sign(batch(), "node1", keys, NOW);
        assertThatCode(() -> node1.check(signed)).doesNotThrowAnyException();
        assertRefused(() -> node1.check(signed), "Job credential replayed");
    }

    @Test
    void the_checked_launch_comes_back_as_the_node_keeps_it_the_request_whole() throws Exception {
        // The map's entries were put out of order: the kept bytes are the canonical ones.
        LaunchBatchJobRequest signed = JobCredentials.sign(batch(), "node1", keys, NOW);
        byte[] kept = node1.check(signed);
        assertThat(LaunchBatchJobRequest.parseFrom(kept)).isEqualTo(signed);
        // As the controller sends it: the same bytes, so a launch is serialised once at each end.
        assertThat(kept)
                .isEqualTo(JobCredentials.withCredential(JobCredentials.canonical(batch()), signed.getCredential()));
    }

    @Test
    void a_launch_signed_again_carries_only_the_new_credential() {
        // A retry re-signs what was sent: the old credential (for node2) is replaced, not signed over.
        LaunchBatchJobRequest forNode2 = JobCredentials.sign(batch(), "node2", keys, NOW);
        LaunchBatchJobRequest resigned = JobCredentials.sign(forNode2, "node1", keys, NOW);
        assertThat(resigned.getCredential()).isNotEqualTo(forNode2.getCredential());
        assertThatCode(() -> node1.check(resigned)).doesNotThrowAnyException();
    }

    @Test
    void a_launch_without_credential_is_refused() {
        assertRefused(() -> node1.check(batch()), "Invalid job credential: the launch carries none");
    }

    @Test
    void an_altered_launch_is_refused() {
        LaunchBatchJobRequest signed = JobCredentials.sign(batch(), "node1", keys, NOW);
        LaunchBatchJobRequest otherScript = signed.toBuilder()
                .setSpec(signed.getSpec().toBuilder()
                        .setScript(com.google.protobuf.ByteString.copyFromUtf8("#!/bin/sh\nrm -rf ~\n")))
                .build();
        assertRefused(() -> node1.check(otherScript), "Invalid job credential: credential was issued for a different");
        LaunchBatchJobRequest asRoot = signed.toBuilder()
                .setSpec(signed.getSpec().toBuilder().setOwner(ALICE.toBuilder().setUid(0)))
                .build();
        assertRefused(() -> node1.check(asRoot), "Invalid job credential");
        LaunchBatchJobRequest moreGpus = signed.toBuilder()
                .addGres(GresGrant.newBuilder().setName("gpu").addIndices(1))
                .build();
        assertRefused(() -> node1.check(moreGpus), "Invalid job credential");
    }

    @Test
    void a_launch_for_another_node_is_refused() {
        LaunchBatchJobRequest forNode2 = JobCredentials.sign(batch(), "node2", keys, NOW);
        assertRefused(() -> node1.check(forNode2), "issued for node node2, this is node1");
    }

    @Test
    void an_old_launch_is_refused_as_expired() {
        LaunchBatchJobRequest signed = JobCredentials.sign(batch(), "node1", keys, NOW);
        now.set(NOW.plus(JobCredentials.TTL).plusSeconds(1));
        assertRefused(() -> node1.check(signed), "Job credential expired");
    }

    @Test
    void a_launch_signed_with_another_key_is_refused() {
        ClusterCredentials rogue = new ClusterCredentials(ClusterKeys.of(TestDaemonAuth.key("k")));
        LaunchBatchJobRequest signed = JobCredentials.sign(batch(), "node1", rogue, NOW);
        assertRefused(() -> node1.check(signed), "Invalid job credential: credential signature does not match");
    }

    @Test
    void a_step_runs_once_even_with_a_second_credential() {
        LaunchStepRequest step = LaunchStepRequest.newBuilder()
                .setJobId(7)
                .setStepId(0)
                .setOwner(ALICE)
                .addArgv("hostname")
                .putEnvironment("B", "2")
                .putEnvironment("A", "1")
                .build();
        assertThatCode(() -> node1.check(JobCredentials.sign(step, "node1", keys, NOW)))
                .doesNotThrowAnyException();
        assertRefused(
                () -> node1.check(JobCredentials.sign(step, "node1", keys, NOW)), "step 7.0 already launched here");
    }

    @Test
    void the_signature_survives_the_wire() throws Exception {
        LaunchBatchJobRequest signed = JobCredentials.sign(batch(), "node1", keys, NOW);
        LaunchBatchJobRequest received = LaunchBatchJobRequest.parseFrom(signed.toByteArray());
        assertThatCode(() -> node1.check(received)).doesNotThrowAnyException();
        assertThat(received.getCredential()).isNotEmpty();
    }

    @Test
    void a_launch_sent_as_signed_bytes_is_the_request_with_its_credential() throws Exception {
        LaunchBatchJobRequest received =
                LaunchBatchJobRequest.parseFrom(JobCredentials.signedBytes(batch(), "node1", keys, NOW));
        assertThat(received.toBuilder().clearCredential().build()).isEqualTo(batch());
        assertThat(received.getCredential()).isNotEmpty();
        assertThatCode(() -> node1.check(received)).doesNotThrowAnyException();
        assertRefused(() -> node1.check(received), "Job credential replayed");
    }

    @Test
    void signed_bytes_replace_an_earlier_credential_and_bind_the_node() throws Exception {
        LaunchBatchJobRequest forNode2 = JobCredentials.sign(batch(), "node2", keys, NOW);
        LaunchBatchJobRequest resigned =
                LaunchBatchJobRequest.parseFrom(JobCredentials.signedBytes(forNode2, "node1", keys, NOW));
        assertThat(resigned.getCredential()).isNotEqualTo(forNode2.getCredential());
        assertThatCode(() -> node1.check(resigned)).doesNotThrowAnyException();
        LaunchBatchJobRequest elsewhere =
                LaunchBatchJobRequest.parseFrom(JobCredentials.signedBytes(batch(), "node2", keys, NOW));
        assertRefused(() -> node1.check(elsewhere), "issued for node node2");
    }

    @Test
    void launches_sent_together_each_keep_their_own_credential() throws Exception {
        LaunchBatchJobRequest other = batch().toBuilder().setJobId(8).build();
        byte[] together = JobCredentials.together(java.util.List.of(
                JobCredentials.signedBytes(batch(), "node1", keys, NOW),
                JobCredentials.signedBytes(other, "node1", keys, NOW),
                JobCredentials.signedBytes(batch(), "node2", keys, NOW)));
        var received = dev.sluice.protocol.v1.LaunchBatchJobsRequest.parseFrom(together)
                .getLaunchesList();
        assertThat(received).hasSize(3);
        assertThat(received.get(1).toBuilder().clearCredential().build()).isEqualTo(other);
        assertThatCode(() -> node1.check(received.get(0))).doesNotThrowAnyException();
        assertThatCode(() -> node1.check(received.get(1))).doesNotThrowAnyException();
        // One launch's credential does not vouch for its neighbours, nor for a replay of itself.
        assertRefused(() -> node1.check(received.get(2)), "issued for node node2");
        assertRefused(() -> node1.check(received.get(0)), "Job credential replayed");
    }

    private static void assertRefused(org.assertj.core.api.ThrowableAssert.ThrowingCallable check, String message) {
        assertThatThrownBy(check).isInstanceOf(AuthException.class).hasMessageContaining(message);
    }
}
