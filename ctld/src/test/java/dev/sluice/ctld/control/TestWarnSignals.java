package dev.sluice.ctld.control;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ctld.Builders;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.ControlHarness;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.DynamicMembership;
import dev.sluice.ctld.state.Effect;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.NodeHardware;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.ctld.wire.WireMapper;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.JobSpec;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** When --signal is due and where it goes, against an injected "now". */
class TestWarnSignals {
    private static final long START = 10_000;
    private final ControlHarness harness = new ControlHarness();

    private static JobRequest request(String script, int signal, int seconds, boolean batchOnly) {
        return WireMapper.toDomain(JobSpec.newBuilder()
                .setName("warn")
                .setScript(com.google.protobuf.ByteString.copyFromUtf8(script))
                .setNumTasks(1)
                .setOwner(Identity.newBuilder().setUid(1001).setGid(100).setUserName("alice"))
                .setWarnSignal(signal)
                .setWarnSeconds(seconds)
                .setWarnBatchOnly(batchOnly)
                .build());
    }

    private ClusterState running(JobRequest request, long limitMinutes) {
        ClusterState state = ClusterFixture.aCluster()
                .nodes(ClusterFixture.aNode("n1").hardware(new NodeHardware(4, 1, 1, 4, 1, 8000, 0)))
                .partitions(names -> List.of(Builders.aPartition("all", names)))
                .memberships(new DynamicMembership("all", true, Set.of()))
                .configured();
        harness.replay(state, new StateRecord.JobSubmitted(1, request, "all", limitMinutes, START - 5));
        harness.replay(
                state,
                new StateRecord.JobStarted(
                        1,
                        new Allocation(List.of(Allocation.NodeShare.of("n1", 1, 0, 1))),
                        "all",
                        limitMinutes,
                        START));
        return state;
    }

    @Test
    void theBatchShellGetsItSigTimeSecondsBeforeTheLimitOnce() {
        // sbatch -t 1 --signal=B:USR1@20: due 40 s after the start.
        ClusterState state = running(request("#!/bin/sh\n", 10, 20, true), 1);
        assertThat(WarnSignals.dueAt(state.job(1))).isEqualTo(START + 40);
        assertThat(WarnSignals.send(state, START + 39).effects()).isEmpty();
        ControlResult<Void> due = WarnSignals.send(state, START + 40);
        assertThat(due.effects()).containsExactly(new Effect.Signal(1, List.of("n1"), 10, true, false));
        harness.apply(state, due);
        assertThat(WarnSignals.send(state, START + 41).effects()).isEmpty();
    }

    @Test
    void withoutBTheStepsGetItAndNotTheShell() {
        // --signal=USR2: Slurm's default sig_time is 60 s.
        ClusterState state = running(request("#!/bin/sh\n", 12, 60, false), 5);
        assertThat(WarnSignals.send(state, START + 239).effects()).isEmpty();
        assertThat(WarnSignals.send(state, START + 240).effects())
                .containsExactly(new Effect.Signal(1, List.of("n1"), 12, false, true));
    }

    @Test
    void aSigTimeBeyondTheLimitSendsItAtTheStart() {
        ClusterState state = running(request("#!/bin/sh\n", 10, 600, true), 1);
        assertThat(WarnSignals.dueAt(state.job(1))).isEqualTo(START);
    }

    @Test
    void noSignalOrNoLimitMeansNothingIsDue() {
        assertThat(WarnSignals.dueAt(
                        running(request("#!/bin/sh\n", 0, 0, false), 1).job(1)))
                .isEqualTo(-1);
        ClusterState unlimited = running(request("#!/bin/sh\n", 10, 60, true), JobRequest.TIME_INFINITE);
        assertThat(WarnSignals.dueAt(unlimited.job(1))).isEqualTo(-1);
        assertThat(WarnSignals.send(unlimited, START + 1_000_000).effects()).isEmpty();
    }

    @Test
    void anAllocationWithoutAShellHasItsStepsSignalledEvenWithB() {
        ClusterState state = running(request("", 10, 30, true), 1);
        assertThat(WarnSignals.send(state, START + 30).effects())
                .containsExactly(new Effect.Signal(1, List.of("n1"), 10, false, true));
    }
}
