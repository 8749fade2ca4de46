package dev.sluice.ctld.control;

import static dev.sluice.ctld.Builders.aJob;
import static dev.sluice.ctld.control.NodeControlFixture.state;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.ctld.ControlHarness;
import dev.sluice.ctld.sched.Scheduler;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.DaemonReport;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.NodeEndpoint;
import dev.sluice.ctld.state.NodeEquipment;
import dev.sluice.ctld.state.NodeFacts;
import dev.sluice.ctld.state.NodeHardware;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Whether a submission could ever fit its partition is remembered between submissions
 * ({@link PartitionFits}), but only while the partition's nodes stay as they were: a node that
 * joins changes the answer for the very next submission of the same shape.
 */
class TestPartitionFits {
    private static final long NOW = 1_000;
    private final JobControl jobs =
            JobControl.builder(Scheduler.SelectDefaults.DEFAULT).build();
    private final ControlHarness harness = new ControlHarness();
    private final ClusterState state = state();

    private ErrorCode refusal(JobRequest request) {
        JobControl.Submission s = harness.apply(state, jobs.submission(state, request, NOW, false));
        return s.refusal() == null ? null : s.refusal().code();
    }

    @Test
    void aShapeRefusedOnTheNodesThereWereFitsOnceANodeJoins() {
        JobRequest bigMemory = aJob().memPerNode(20_000).build();
        // n1 alone: 4 CPUs, 8000 MB.
        assertThat(refusal(bigMemory)).isEqualTo(ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE);
        assertThat(refusal(bigMemory)).isEqualTo(ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE);
        assertThat(refusal(aJob().build())).isNull();

        // A dynamic node (slurmd -Z) of 64000 MB joins the partition.
        NodeControl nodes = new NodeControl(30, NodePolicy.DEFAULT);
        NodeHardware big = new NodeHardware(8, 1, 8, 1, 1, 64000, 0);
        harness.apply(
                state,
                nodes.register(
                        state,
                        new NodeControl.Registration(
                                "d1",
                                new NodeEndpoint("d1", "127.0.0.1", 7001),
                                new NodeEquipment(big, List.of(), ""),
                                new DaemonReport(1, "v", NodeFacts.NONE),
                                true,
                                Set.of(),
                                Optional.of(new NodeControl.Found(big, Map.of()))),
                        NOW));
        assertThat(state.partitions().get(0).nodes()).containsExactly("n1", "d1");
        assertThat(refusal(bigMemory)).isNull();
        assertThat(refusal(aJob().memPerNode(100_000).build())).isEqualTo(ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE);
    }
}
