package dev.sluice.ctld.control;

import static dev.sluice.ctld.Builders.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.FieldDescriptor;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.slurm.NodeStateRequest;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.sched.Scheduler;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.ctld.wire.WireMapper;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.JobChanges;
import dev.sluice.protocol.v1.JobSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the controller refuses from any client, the commands bypassed (issue 28, part 4). Slurm
 * 22.05 stores a newline in a job name and prints it raw in squeue, scontrol show job and sacct
 * (seen on this machine, 2026-12-02); Sluice refuses it, and every other control character, in
 * every text field of a job. The memory refusal and its two lines are Slurm 22.05's, seen on
 * this machine with nodes of RealMemory=8000 and CR_Core.
 */
class TestHostileInput {
    private static final long NOW = 1_000_000;
    private static final Caller OWNER = Caller.of(1000, 1000, "user1000");

    private final ClusterState state = ClusterFixture.aCluster()
            .nodes(
                    ClusterFixture.aNode("n1").memory(8000),
                    ClusterFixture.aNode("n2").memory(6000))
            .configured();
    private final JobControl jobs =
            JobControl.builder(Scheduler.SelectDefaults.DEFAULT).build();

    private static JobSpec.Builder plain() {
        return JobSpec.newBuilder()
                .setName("job")
                .setScript(ByteString.copyFromUtf8("#!/bin/sh\ntrue\n"))
                .setWorkDir("/tmp")
                .setTimeLimitMinutes(0xfffffffe)
                .setOwner(Identity.newBuilder().setUid(1000).setGid(1000).setUserName("user1000"));
    }

    private ControlResult<Integer> submit(JobSpec.Builder spec) {
        return jobs.submit(state, WireMapper.toDomain(spec.build()), NOW);
    }

    private static SlurmException refusal(Runnable action) {
        try {
            action.run();
        } catch (SlurmException e) {
            return e;
        }
        throw new AssertionError("accepted");
    }

    @Test
    void everyTextFieldOfAJobRefusesANewline() {
        List<FieldDescriptor> text = JobSpec.getDescriptor().getFields().stream()
                .filter(f -> f.getType() == FieldDescriptor.Type.STRING)
                .toList();
        // All of them, so that a text field added later is checked or this test says so.
        assertThat(text).hasSizeGreaterThan(20);
        for (FieldDescriptor f : text) {
            JobSpec.Builder spec = plain();
            if (f.isRepeated()) {
                spec.addRepeatedField(f, "x\n  999 evil");
            } else {
                spec.setField(f, "x\n  999 evil");
            }
            SlurmException e = refusal(() -> submit(spec));
            assertThat(e.code()).as(f.getName()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
            assertThat(e.getMessage())
                    .as(f.getName())
                    .startsWith("Invalid ")
                    .endsWith(": control character \\n is not allowed");
        }
    }

    @Test
    void theRefusalNamesTheFieldAndTheCharacter() {
        assertThat(refusal(() -> submit(plain().setName("a\nb"))).getMessage())
                .isEqualTo("Invalid JobName: control character \\n is not allowed");
        assertThat(refusal(() -> submit(plain().setComment("red\u001b[31m"))).getMessage())
                .isEqualTo("Invalid Comment: control character \\x1b is not allowed");
        assertThat(refusal(() -> submit(plain().setStdOut("x\ry"))).getMessage())
                .isEqualTo("Invalid StdOut: control character \\r is not allowed");
        assertThat(refusal(() -> submit(plain().setWorkDir("/tmp/\u009b2J"))).getMessage())
                .isEqualTo("Invalid WorkDir: control character \\x9b is not allowed");
    }

    @Test
    void textThatIsMerelyUnusualIsAccepted() {
        submit(plain().setName("caf\u00e9 | x").setComment("50% done; 'quoted' \"too\""));
    }

    @Test
    void theEnvironmentMayHoldAnyBytesButNul() {
        byte[] latin1 = {'x', (byte) 0xe9, '\n', 'y'};
        submit(plain().putEnvironment("V", ByteString.copyFrom(latin1)));
        assertThat(refusal(() -> submit(plain().putEnvironment("V", ByteString.copyFromUtf8("a\0b"))))
                        .getMessage())
                .isEqualTo("Invalid environment variable value: NUL character");
        assertThat(refusal(() -> submit(plain().putEnvironment("A=B", ByteString.copyFromUtf8("c"))))
                        .getMessage())
                .isEqualTo("Invalid environment variable name");
        assertThat(refusal(() -> submit(plain().putEnvironment("", ByteString.copyFromUtf8("c"))))
                        .code())
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
    }

    @Test
    void anUpdateMayNotBringAControlCharacterEither() {
        int id = state.nextJobId();
        state.replay(1, new StateRecord.JobSubmitted(id, aJob().uid(1000).build(), "p", 10, NOW - 10));
        String target = Integer.toString(id);
        assertThat(refusal(() -> update(target, JobChanges.newBuilder().setName("u\nv")))
                        .getMessage())
                .isEqualTo("Invalid JobName: control character \\n is not allowed");
        assertThat(refusal(() -> update(target, JobChanges.newBuilder().setComment("c\nd")))
                        .getMessage())
                .isEqualTo("Invalid Comment: control character \\n is not allowed");
        assertThat(update(target, JobChanges.newBuilder().setComment("fine")).records())
                .hasSize(1);
    }

    /** An update as it arrives: parsed at the edge, then decided. */
    private ControlResult<?> update(String target, JobChanges.Builder changes) {
        return JobUpdate.update(state, OWNER, target, WireMapper.changes(changes.build()), NOW);
    }

    @Test
    void aNodeReasonEveryoneSeesInSinfoIsCheckedToo() {
        Caller root = Caller.of(0, 0, "root");
        assertThat(refusal(() -> new NodeControl(300, NodePolicy.DEFAULT)
                                .update(
                                        state,
                                        root,
                                        List.of("n1"),
                                        java.util.Optional.of(NodeStateRequest.DRAIN),
                                        "disk\nn2 down",
                                        NOW))
                        .getMessage())
                .isEqualTo("Invalid Reason: control character \\n is not allowed");
    }

    @Test
    void memoryAboveEveryNodesRealMemoryIsRefusedAtSubmitWithSlurmsTwoLines() {
        SlurmException e = refusal(() -> submit(plain().setMemPerNodeMb(9_000_000)));
        assertThat(e.code()).isEqualTo(ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE);
        assertThat(e.getMessage()).isEqualTo("Requested node configuration is not available");
        assertThat(e.userMessage()).isEqualTo("Memory specification can not be satisfied");
        assertThat(refusal(() -> submit(plain().setMemPerNodeMb(8001))).userMessage())
                .isEqualTo("Memory specification can not be satisfied");
        assertThat(refusal(() -> submit(plain().setMemPerCpuMb(8001))).userMessage())
                .isEqualTo("Memory specification can not be satisfied");
    }

    @Test
    void moreCpusPerTaskThanAnyNodeHasIsRefusedWithSlurmsTwoLines() {
        SlurmException e = refusal(() -> submit(plain().setCpusPerTask(5)));
        assertThat(e.code()).isEqualTo(ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE);
        assertThat(e.userMessage()).isEqualTo("CPU count per node can not be satisfied");
        assertThat(submit(plain().setCpusPerTask(4)).records()).hasSize(1);
    }

    @Test
    void memoryThatTheLargestNodeHasIsAccepted() {
        // The largest node counts, not the smallest; per CPU is not multiplied (as Slurm 22.05
        // accepted --mem-per-cpu=4001 -c2 on 8000 MB nodes).
        assertThat(submit(plain().setMemPerNodeMb(8000)).records()).hasSize(1);
        assertThat(submit(plain().setMemPerCpuMb(4001).setCpusPerTask(2)).records())
                .hasSize(1);
        JobRequest fromBuilder = aJob().memPerNode(7000).build();
        assertThat(jobs.submit(state, fromBuilder, NOW).records()).hasSize(1);
    }
}
