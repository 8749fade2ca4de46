package dev.sluice.ctld.gres;

import static dev.sluice.ctld.Builders.aJob;
import static dev.sluice.ctld.PlacementBuilders.aNode;
import static dev.sluice.ctld.PlacementBuilders.aRequest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.slurm.JobReason;
import dev.sluice.ctld.select.Allocator;
import dev.sluice.ctld.select.NodeCapacity;
import dev.sluice.ctld.select.PlacementResult;
import dev.sluice.ctld.state.Allocation;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** GRES placement, from the seeds' GRES guide and fake-GPU lab. */
class TestGresPlacement {
    private static Allocation placed(PlacementResult r) {
        assertThat(r).isInstanceOf(PlacementResult.Placed.class);
        return ((PlacementResult.Placed) r).allocation();
    }

    private static NodeCapacity after(NodeCapacity node, Allocation a) {
        return node.minus(a.nodes().get(0));
    }

    @Test
    void allOrNothingOverTwoNodesOfThreeGpus() {
        // Lab experiment 1: two `sbatch -N2 --gres=gpu:2` on 2 x 3 GPUs: one runs, one waits.
        List<NodeCapacity> nodes = List.of(
                aNode("w1").gres("gpu:3").build(), aNode("w2").gres("gpu:3").build());
        Allocation first = placed(
                Allocator.place(nodes, aRequest().nodes(2).gres("gpu", "", 2).build()));
        assertThat(first.nodes())
                .allSatisfy(s -> assertThat(s.gres()).containsExactly(new GresGrant("gpu", "", List.of(0, 1), 2)));
        List<NodeCapacity> busy = List.of(
                nodes.get(0).minus(first.nodes().get(0)),
                nodes.get(1).minus(first.nodes().get(1)));
        assertThat(Allocator.place(busy, aRequest().nodes(2).gres("gpu", "", 2).build()))
                .isEqualTo(new PlacementResult.Pending(JobReason.RESOURCES));
    }

    @Test
    void moreGpusThanAnyNodeHasIsRejected() {
        assertThat(Allocator.place(
                        List.of(aNode("w1").gres("gpu:3").build()),
                        aRequest().gres("gpu", "", 99).build()))
                .isEqualTo(new PlacementResult.Rejected(ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE));
    }

    @Test
    void gpuTogetherWithMpsIsAnInvalidSpecification() {
        assertThatThrownBy(() -> GresDemands.of(aJob().gres("gpu:1,mps:50").build(), Set.of("gpu", "mps")))
                .isInstanceOf(SlurmException.class)
                .hasMessage("Invalid generic resource (gres) specification");
    }

    @Test
    void unknownGresNameIsAnInvalidSpecification() {
        assertThatThrownBy(() -> GresDemands.of(aJob().gres("fpga:1").build(), Set.of("gpu")))
                .isInstanceOf(SlurmException.class)
                .extracting(e -> ((SlurmException) e).code())
                .isEqualTo(ErrorCode.INVALID_GRES);
    }

    @Test
    void mpsTakesAShareOfOneGpuWhichThenCannotBeGivenWhole() {
        NodeCapacity node = aNode("w1").gres("gpu:3,mps:300").build();
        Allocation mps = placed(
                Allocator.place(List.of(node), aRequest().gres("mps", "", 50).build()));
        assertThat(mps.nodes().get(0).gres()).containsExactly(new GresGrant("mps", "", List.of(0), 50));
        NodeCapacity shared = after(node, mps);
        assertThat(Allocator.place(
                        List.of(shared), aRequest().gres("gpu", "", 3).build()))
                .isEqualTo(new PlacementResult.Pending(JobReason.RESOURCES));
        assertThat(placed(Allocator.place(
                                List.of(shared), aRequest().gres("gpu", "", 2).build()))
                        .nodes()
                        .get(0)
                        .gres())
                .containsExactly(new GresGrant("gpu", "", List.of(1, 2), 2));
        // A second MPS job shares the same GPU while it has room.
        assertThat(placed(Allocator.place(
                                List.of(shared), aRequest().gres("mps", "", 50).build()))
                        .nodes()
                        .get(0)
                        .gres())
                .containsExactly(new GresGrant("mps", "", List.of(0), 50));
    }

    @Test
    void aShardRequestLargerThanOneGpuWaitsInsteadOfBeingRejected() {
        // Real Slurm keeps --gres=shard:5 pending when each GPU has 4 shards.
        NodeCapacity node = aNode("w1").gres("gpu:3,shard:12").build();
        assertThat(Allocator.place(
                        List.of(node), aRequest().gres("shard", "", 5).build()))
                .isEqualTo(new PlacementResult.Pending(JobReason.RESOURCES));
        assertThat(placed(Allocator.place(
                                List.of(node), aRequest().gres("shard", "", 4).build()))
                        .nodes()
                        .get(0)
                        .gres())
                .containsExactly(new GresGrant("shard", "", List.of(0), 4));
    }

    @Test
    void anMpsRequestLargerThanOneGpuSpreadsOverWholeShares() {
        // Real Slurm 22.05 runs --gres=mps:150 with 100 a GPU (compat 015).
        NodeCapacity node = aNode("w1").gres("gpu:3,mps:300").build();
        Allocation a = placed(
                Allocator.place(List.of(node), aRequest().gres("mps", "", 150).build()));
        assertThat(a.nodes().get(0).gres()).containsExactly(new GresGrant("mps", "", List.of(0, 1), 150));
        // GPU 0 is taken whole, GPU 1 has 50 left: another mps:50 fits there, mps:100 on GPU 2.
        NodeCapacity busy = after(node, a);
        assertThat(placed(Allocator.place(
                                List.of(busy), aRequest().gres("mps", "", 50).build()))
                        .nodes()
                        .get(0)
                        .gres())
                .containsExactly(new GresGrant("mps", "", List.of(1), 50));
        assertThat(placed(Allocator.place(
                                List.of(busy), aRequest().gres("mps", "", 100).build()))
                        .nodes()
                        .get(0)
                        .gres())
                .containsExactly(new GresGrant("mps", "", List.of(2), 100));
        assertThat(Allocator.place(
                        List.of(busy), aRequest().gres("mps", "", 200).build()))
                .isEqualTo(new PlacementResult.Pending(JobReason.RESOURCES));
    }

    @Test
    void typedRequestsGetDevicesOfThatType() {
        NodeCapacity node = aNode("w1").gres("gpu:tesla:2,gpu:kepler:1").build();
        assertThat(placed(Allocator.place(
                                List.of(node),
                                aRequest().gres("gpu", "kepler", 1).build()))
                        .nodes()
                        .get(0)
                        .gres())
                .containsExactly(new GresGrant("gpu", "kepler", List.of(2), 1));
        assertThat(Allocator.place(
                        List.of(node), aRequest().gres("gpu", "kepler", 2).build()))
                .isEqualTo(new PlacementResult.Rejected(ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE));
    }

    @Test
    void gpusPerTaskScaleWithTasksAndCpusPerGpuAddCpus() {
        NodeCapacity node = aNode("w1").cpus(8).gres("gpu:4").build();
        Allocation a = placed(Allocator.place(
                List.of(node), aRequest().tasks(2).gpusPerTask(2).cpusPerGpu(2).build()));
        assertThat(a.nodes().get(0).gres()).containsExactly(new GresGrant("gpu", "", List.of(0, 1, 2, 3), 4));
        assertThat(a.totalCpus()).isEqualTo(8);
        assertThat(Allocator.place(
                        List.of(node), aRequest().tasks(3).gpusPerTask(2).build()))
                .isInstanceOf(PlacementResult.Rejected.class);
    }

    @Test
    void gpusPerJobSpreadOverNodesThatHaveThem() {
        List<NodeCapacity> nodes = List.of(
                aNode("cpu1").build(),
                aNode("g1").gres("gpu:2").build(),
                aNode("g2").gres("gpu:2").build());
        Allocation a = placed(Allocator.place(
                nodes, aRequest().tasks(2).nodes(1, 2).gpusPerJob(3).build()));
        assertThat(a.nodeNames()).containsExactly("g1", "g2");
        assertThat(a.totalGres("gpu")).isEqualTo(3);
    }

    @Test
    void countOnlyResourcesAreCountedAndNoConsumeNeverRunsOut() {
        NodeCapacity node =
                aNode("w1").gres("bandwidth:lustre:no_consume:4G,lic:2").build();
        Allocation a = placed(
                Allocator.place(List.of(node), aRequest().gres("lic", "", 2).build()));
        NodeCapacity used = after(node, a);
        assertThat(Allocator.place(List.of(used), aRequest().gres("lic", "", 1).build()))
                .isEqualTo(new PlacementResult.Pending(JobReason.RESOURCES));
        assertThat(Allocator.place(
                        List.of(used), aRequest().gres("bandwidth", "", 1024).build()))
                .isInstanceOf(PlacementResult.Placed.class);
    }
}
