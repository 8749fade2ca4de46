package dev.sluice.ctld.select;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.slurm.JobReason;
import dev.sluice.ctld.gres.GresDemand;
import dev.sluice.ctld.gres.GresGrant;
import dev.sluice.ctld.gres.GresInventory;
import dev.sluice.ctld.gres.GresPool;
import dev.sluice.ctld.gres.GresUnit;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.CoreSet;
import dev.sluice.ctld.state.FeatureConstraint;
import dev.sluice.ctld.state.NodeHardware;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * GPU and core choices on a node whose gres.conf binds GPUs to cores, the gres.conf man page's
 * example layout: {@code Name=gpu Type=a100 File=/dev/nvidia[0-1] Cores=0-15} and
 * {@code File=/dev/nvidia[2-3] Cores=16-31} on a 2-socket, 32-core node. Behaviour from the
 * gres.conf man page (Cores=: "the job's CPUs should be allocated from the cores near the
 * GPU"; with --gres-flags=enforce-binding "only the identified cores can be allocated") and
 * the sbatch man page's --gres-flags.
 */
class TestCoreAffinity {
    private static final NodeHardware TWO_SOCKETS = new NodeHardware(32, 1, 2, 16, 1, 64000, 0);

    private static NodeCapacity node() {
        List<GresUnit> gpus = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            List<Integer> cores = i < 2 ? range(0, 15) : range(16, 31);
            gpus.add(new GresUnit("gpu", "a100", i, "/dev/nvidia" + i, cores, 1, true));
        }
        return new NodeCapacity(
                "gpu1",
                TWO_SOCKETS,
                32,
                64000,
                true,
                true,
                List.of(),
                1,
                GresPool.idle(new GresInventory(gpus)),
                CoreSet.EMPTY);
    }

    private static List<Integer> range(int from, int to) {
        return IntStream.rangeClosed(from, to).boxed().toList();
    }

    /** The node with these cores and GPUs held by an earlier job. */
    private static NodeCapacity busy(List<Integer> cores, List<Integer> gpus) {
        List<GresGrant> grants = gpus.isEmpty() ? List.of() : List.of(new GresGrant("gpu", "a100", gpus, gpus.size()));
        return node().minus(new Allocation.NodeShare("gpu1", cores.size(), 0, 1, grants, cores));
    }

    private static PlacementRequest gpus(int gpus, int cpus, boolean enforce) {
        GresDemand demand = new GresDemand(List.of(new GresDemand.Item("gpu", "", gpus)), 0, "", 0, "", 0, 0);
        return new PlacementRequest(
                new PlacementRequest.Shape(1, 1, 1, cpus, 0),
                PlacementRequest.MemoryAsk.NONE,
                PlacementRequest.NodeChoice.ANY,
                demand,
                enforce);
    }

    private static Allocation.NodeShare placed(NodeCapacity node, PlacementRequest request) {
        PlacementResult r = Allocator.place(List.of(node), request);
        assertThat(r).isInstanceOf(PlacementResult.Placed.class);
        return ((PlacementResult.Placed) r).allocation().nodes().get(0);
    }

    private static List<Integer> gpuIndices(Allocation.NodeShare share) {
        return share.gres().get(0).indices();
    }

    @Test
    void idleNodeGivesTheFirstGpuAndCoresOfItsSocket() {
        Allocation.NodeShare s = placed(node(), gpus(1, 4, false));
        assertThat(gpuIndices(s)).containsExactly(0);
        assertThat(s.cores()).containsExactly(0, 1, 2, 3);
    }

    @Test
    void aGpuWhoseSocketLacksFreeCoresIsPassedOverForOneWhoseSocketHasThem() {
        // Cores 0-13 busy: GPU 0 is free but only cores 14-15 are near it.
        Allocation.NodeShare s = placed(busy(range(0, 13), List.of()), gpus(1, 4, false));
        assertThat(gpuIndices(s)).containsExactly(2);
        assertThat(s.cores()).containsExactly(16, 17, 18, 19);
    }

    @Test
    void twoGpusComeFromTheSocketWithRoomForTheJobsCores() {
        Allocation.NodeShare s = placed(busy(range(0, 9), List.of()), gpus(2, 8, false));
        assertThat(gpuIndices(s)).containsExactly(2, 3);
        assertThat(s.cores()).isEqualTo(range(16, 23));
    }

    @Test
    void withoutEnforceBindingNearCoresComeFirstThenAnyFreeCore() {
        // GPUs 2-3 taken, cores 0-13 busy: GPU 0 it is, with its two free cores and two others.
        Allocation.NodeShare s = placed(busy(range(0, 13), List.of(2, 3)), gpus(1, 4, false));
        assertThat(gpuIndices(s)).containsExactly(0);
        assertThat(s.cores()).containsExactly(14, 15, 16, 17);
    }

    @Test
    void enforceBindingWaitsForNearCoresEvenWhenOtherCoresAreFree() {
        NodeCapacity node = busy(range(0, 13), List.of(2, 3));
        assertThat(node.freeCores()).hasSize(18);
        assertThat(Allocator.place(List.of(node), gpus(1, 4, true)))
                .isEqualTo(new PlacementResult.Pending(JobReason.RESOURCES));
    }

    @Test
    void enforceBindingGivesOnlyCoresOfTheGrantedGpus() {
        Allocation.NodeShare s = placed(busy(range(0, 13), List.of()), gpus(1, 2, true));
        assertThat(gpuIndices(s)).containsExactly(0);
        assertThat(s.cores()).containsExactly(14, 15);
    }

    @Test
    void enforceBindingWithMoreCoresThanAnyGpusCoresIsNeverPossible() {
        // One GPU is near 16 cores; 20 bound cores can never be found on this node.
        assertThat(Allocator.place(List.of(node()), gpus(1, 20, true)))
                .isEqualTo(new PlacementResult.Rejected(ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE));
        // Two GPUs, one per socket, are near all 32: that fits.
        Allocation.NodeShare s = placed(node(), gpus(1, 20, false));
        assertThat(s.cores()).isEqualTo(range(0, 19));
    }

    @Test
    void coresOfAnEarlierJobAreNeverGivenAgain() {
        NodeCapacity node = node();
        Allocation.NodeShare first = placed(node, gpus(1, 6, false));
        Allocation.NodeShare second = placed(node.minus(first), gpus(1, 6, false));
        assertThat(first.cores()).isEqualTo(range(0, 5));
        assertThat(second.cores()).isEqualTo(range(6, 11));
        assertThat(gpuIndices(second)).containsExactly(1);
    }

    @Test
    void gpusWithoutCoresLineMayUseAnyCore() {
        List<GresUnit> unbound = List.of(new GresUnit("gpu", "", 0, "/dev/nvidia0", List.of(), 1, true));
        NodeCapacity node = new NodeCapacity(
                        "gpu1",
                        TWO_SOCKETS,
                        32,
                        64000,
                        true,
                        true,
                        List.of(),
                        1,
                        GresPool.idle(new GresInventory(unbound)),
                        CoreSet.EMPTY)
                .minus(new Allocation.NodeShare("gpu1", 3, 0, 1, List.of(), List.of(0, 1, 2)));
        Allocation.NodeShare s = placed(node, gpus(1, 2, true));
        assertThat(s.cores()).containsExactly(3, 4);
    }

    @Test
    void hyperthreadsCountAsOneCore() {
        NodeHardware ht = new NodeHardware(8, 1, 1, 4, 2, 8000, 0);
        NodeCapacity node = new NodeCapacity(
                "n1", ht, 8, 8000, true, true, List.of(), 1, GresPool.idle(GresInventory.NONE), CoreSet.EMPTY);
        PlacementRequest threeCpus = new PlacementRequest(
                new PlacementRequest.Shape(1, 1, 1, 3, 0),
                PlacementRequest.MemoryAsk.NONE,
                PlacementRequest.NodeChoice.ANY,
                GresDemand.NONE,
                false);
        Allocation.NodeShare s = placed(node, threeCpus);
        assertThat(s.cpus()).isEqualTo(4);
        assertThat(s.cores()).containsExactly(0, 1);
        assertThat(node.minus(s).busyCores()).isEqualTo(CoreSet.of(List.of(0, 1)));
    }

    @Test
    void exclusiveHoldsEveryCore() {
        PlacementRequest r = new PlacementRequest(
                new PlacementRequest.Shape(1, 1, 1, 1, 0),
                PlacementRequest.MemoryAsk.NONE,
                new PlacementRequest.NodeChoice(true, Set.of(), Set.of(), FeatureConstraint.NONE),
                GresDemand.NONE,
                true);
        assertThat(placed(node(), r).cores()).isEqualTo(range(0, 31));
    }
}
