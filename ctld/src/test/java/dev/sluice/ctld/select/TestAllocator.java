package dev.sluice.ctld.select;

import static dev.sluice.ctld.PlacementBuilders.aNode;
import static dev.sluice.ctld.PlacementBuilders.aRequest;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.slurm.JobReason;
import dev.sluice.ctld.state.Allocation;
import java.util.List;
import org.junit.jupiter.api.Test;

class TestAllocator {
    private static Allocation placed(PlacementResult r) {
        assertThat(r).isInstanceOf(PlacementResult.Placed.class);
        return ((PlacementResult.Placed) r).allocation();
    }

    @Test
    void oneCpuOnTwoThreadsPerCoreHoldsAWholeCore() {
        // The seeds' lab: a 1-CPU job on a ThreadsPerCore=2 node gets AllocTRES=cpu=2.
        Allocation a = placed(Allocator.place(
                List.of(aNode("w1").cpus(8).threads(2).build()), aRequest().build()));
        assertThat(a.totalCpus()).isEqualTo(2);
    }

    @Test
    void exclusiveGetsEveryCpuOfTheNode() {
        // The seeds' lab: a whole-node job gets AllocTRES=cpu=8.
        Allocation a = placed(Allocator.place(
                List.of(aNode("w1").cpus(8).threads(2).build()),
                aRequest().exclusive().build()));
        assertThat(a.totalCpus()).isEqualTo(8);
    }

    /**
     * Recorded from Slurm 22.05 (compat 029, 103): --exclusive -n1 gets gres/gpu=3, not the MPS
     * or shard shares, and so does --exclusive --gres=mps:50.
     */
    @Test
    void exclusiveGetsEveryGpuOfTheNodeButNotItsShares() {
        Allocation a = placed(Allocator.place(
                List.of(aNode("n1").cpus(4).gres("gpu:3,mps:300,shard:12").build()),
                aRequest().exclusive().build()));
        assertThat(a.totalGres("gpu")).isEqualTo(3);
        assertThat(a.totalGres("mps")).isZero();
        assertThat(a.totalGres("shard")).isZero();
        Allocation one = placed(Allocator.place(
                List.of(aNode("n1").cpus(4).gres("gpu:3").build()),
                aRequest().exclusive().gres("gpu", "", 1).build()));
        assertThat(one.totalGres("gpu")).isEqualTo(3);
        Allocation mps = placed(Allocator.place(
                List.of(aNode("n1").cpus(4).gres("gpu:3,mps:300").build()),
                aRequest().exclusive().gres("mps", "", 50).build()));
        assertThat(mps.totalGres("gpu")).isEqualTo(3);
        assertThat(mps.totalGres("mps")).isZero();
        Allocation shared = placed(Allocator.place(
                List.of(aNode("n1").cpus(4).gres("gpu:3").build()), aRequest().build()));
        assertThat(shared.totalGres("gpu")).isZero();
    }

    @Test
    void exclusiveWaitsForAnIdleNode() {
        PlacementResult r = Allocator.place(
                List.of(aNode("w1").cpus(8).used(2, 0).build()),
                aRequest().exclusive().build());
        assertThat(r).isEqualTo(new PlacementResult.Pending(JobReason.RESOURCES));
    }

    @Test
    void allOrNothingAcrossNodes() {
        // Two nodes, one busy: a two-node job takes nothing and waits.
        List<NodeCapacity> nodes =
                List.of(aNode("n1").build(), aNode("n2").used(4, 0).build());
        assertThat(Allocator.place(nodes, aRequest().nodes(2).build()))
                .isEqualTo(new PlacementResult.Pending(JobReason.RESOURCES));
    }

    @Test
    void moreNodesThanExistIsRejectedAtOnce() {
        List<NodeCapacity> nodes = List.of(aNode("n1").build(), aNode("n2").build());
        assertThat(Allocator.place(nodes, aRequest().nodes(3).build()))
                .isEqualTo(new PlacementResult.Rejected(ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE));
    }

    @Test
    void tooManyCpusPerTaskIsRejected() {
        assertThat(Allocator.place(
                        List.of(aNode("n1").cpus(4).build()),
                        aRequest().cpusPerTask(5).build()))
                .isEqualTo(new PlacementResult.Rejected(ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE));
    }

    @Test
    void tasksSpreadOverTheFewestNodesInOrder() {
        List<NodeCapacity> nodes =
                List.of(aNode("n1").cpus(4).build(), aNode("n2").cpus(4).build());
        Allocation a =
                placed(Allocator.place(nodes, aRequest().tasks(6).nodes(1, 2).build()));
        assertThat(a.nodes()).extracting(Allocation.NodeShare::node).containsExactly("n1", "n2");
        assertThat(a.nodes()).extracting(Allocation.NodeShare::tasks).containsExactly(4, 2);
    }

    @Test
    void tasksOneNodeCanHoldGoThereRatherThanOverAPartlyUsedNode() {
        // Slurm 22.05, two 4-CPU nodes, n1 running a 2-CPU job: sbatch -n3 runs on n2 alone.
        List<NodeCapacity> nodes = List.of(
                aNode("n1").cpus(4).used(2, 0).build(), aNode("n2").cpus(4).build());
        Allocation a = placed(Allocator.place(nodes, aRequest().tasks(3).build()));
        assertThat(a.nodes()).extracting(Allocation.NodeShare::node).containsExactly("n2");
        // Asked for two nodes, it keeps them.
        a = placed(Allocator.place(nodes, aRequest().tasks(3).nodes(2).build()));
        assertThat(a.nodes()).extracting(Allocation.NodeShare::node).containsExactly("n1", "n2");
    }

    @Test
    void lowerWeightIsPreferred() {
        List<NodeCapacity> nodes = List.of(
                aNode("heavy").weight(10).build(), aNode("light").weight(1).build());
        assertThat(placed(Allocator.place(nodes, aRequest().build())).batchHost())
                .isEqualTo("light");
    }

    @Test
    void excludedNodesAreNeverUsed() {
        List<NodeCapacity> nodes = List.of(aNode("n1").build(), aNode("n2").build());
        assertThat(placed(Allocator.place(nodes, aRequest().exclude("n1").build()))
                        .nodeNames())
                .containsExactly("n2");
    }

    @Test
    void requiredDownNodeWaitsWithReqNodeNotAvail() {
        List<NodeCapacity> nodes =
                List.of(aNode("n1").down().build(), aNode("n2").build());
        assertThat(Allocator.place(nodes, aRequest().require("n1").build()))
                .isEqualTo(new PlacementResult.Pending(JobReason.REQ_NODE_NOT_AVAIL));
    }

    @Test
    void requiredNodeOutsideThePartitionIsRejected() {
        assertThat(Allocator.place(
                        List.of(aNode("n1").build()), aRequest().require("zz").build()))
                .isEqualTo(new PlacementResult.Rejected(ErrorCode.REQUESTED_NODES_NOT_IN_PARTITION));
    }

    @Test
    void memoryIsConsumedWhenConfigured() {
        List<NodeCapacity> nodes = List.of(aNode("n1").memory(1000).used(0, 800).build());
        assertThat(Allocator.place(nodes, aRequest().memPerNode(500).build()))
                .isEqualTo(new PlacementResult.Pending(JobReason.RESOURCES));
        assertThat(Allocator.place(nodes, aRequest().memPerNode(2000).build()))
                .isEqualTo(new PlacementResult.Rejected(ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE));
    }

    @Test
    void tasksPerNodeIsExact() {
        List<NodeCapacity> nodes =
                List.of(aNode("n1").cpus(4).build(), aNode("n2").cpus(4).build());
        Allocation a = placed(Allocator.place(
                nodes, aRequest().nodes(2).tasksPerNode(3).tasks(6).build()));
        assertThat(a.nodes()).extracting(Allocation.NodeShare::cpus).containsExactly(3, 3);
    }
}
