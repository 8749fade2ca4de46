package dev.sluice.ctld.select;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ctld.gres.GresDemand;
import dev.sluice.ctld.gres.GresGrant;
import dev.sluice.ctld.gres.GresInventory;
import dev.sluice.ctld.gres.GresPool;
import dev.sluice.ctld.gres.GresUnit;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.CoreSet;
import dev.sluice.ctld.state.NodeHardware;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Safety of per-core placement on nodes whose GPUs are bound to sockets' cores (gres.conf
 * {@code Cores=}): a core is never given twice, and with {@code --gres-flags=enforce-binding}
 * every core a job gets is near one of its GPUs.
 */
class TestCoreBindingProperties {
    @Provide
    Arbitrary<List<NodeCapacity>> clusters() {
        Arbitrary<NodeCapacity> node = Combinators.combine(
                        Arbitraries.of(1, 2),
                        Arbitraries.integers().between(1, 8),
                        Arbitraries.integers().between(0, 4),
                        Arbitraries.of(true, true, false),
                        Arbitraries.longs().between(0, 0xFFFF),
                        Arbitraries.integers().between(0, 15))
                .as(TestCoreBindingProperties::node);
        return node.list().ofMinSize(1).ofMaxSize(4).map(TestCoreBindingProperties::named);
    }

    /** Two sockets; the first half of the GPUs near socket 0, the rest near socket 1. */
    private static NodeCapacity node(
            int threads, int coresPerSocket, int gpus, boolean bound, long busyCoreMask, int busyGpuMask) {
        int cores = 2 * coresPerSocket;
        List<GresUnit> units = new ArrayList<>();
        for (int i = 0; i < gpus; i++) {
            int socket = i < (gpus + 1) / 2 ? 0 : 1;
            List<Integer> near = new ArrayList<>();
            for (int c = socket * coresPerSocket; bound && c < (socket + 1) * coresPerSocket; c++) {
                near.add(c);
            }
            units.add(new GresUnit("gpu", "", i, "/dev/nvidia" + i, near, 1, true));
        }
        Map<String, Long> usedGpus = new HashMap<>();
        units.stream().filter(u -> (busyGpuMask & (1 << u.index())) != 0).forEach(u -> usedGpus.put(u.key(), 1L));
        List<Integer> busy = new ArrayList<>();
        for (int c = 0; c < cores; c++) {
            if ((busyCoreMask & (1L << c)) != 0) {
                busy.add(c);
            }
        }
        int cpus = cores * threads;
        return new NodeCapacity(
                "n",
                new NodeHardware(cpus, 1, 2, coresPerSocket, threads, 1000, 0),
                cpus - busy.size() * threads,
                1000,
                busy.isEmpty() && usedGpus.isEmpty(),
                true,
                List.of(),
                1,
                new GresPool(new GresInventory(units), usedGpus),
                CoreSet.of(busy));
    }

    private static List<NodeCapacity> named(List<NodeCapacity> nodes) {
        List<NodeCapacity> out = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            NodeCapacity n = nodes.get(i);
            out.add(new NodeCapacity(
                    "n" + i,
                    n.hardware(),
                    n.freeCpus(),
                    n.freeMemoryMb(),
                    n.idle(),
                    n.schedulable(),
                    n.features(),
                    n.weight(),
                    n.gres(),
                    n.busyCores()));
        }
        return out;
    }

    @Provide
    Arbitrary<PlacementRequest> requests() {
        return Combinators.combine(
                        Arbitraries.integers().between(1, 2),
                        Arbitraries.integers().between(1, 6),
                        Arbitraries.integers().between(1, 4),
                        Arbitraries.integers().between(0, 2),
                        Arbitraries.integers().between(0, 1),
                        Arbitraries.of(true, false))
                .as((nodes, tasks, cpt, perNode, perTask, enforce) -> new PlacementRequest(
                        new PlacementRequest.Shape(nodes, nodes, tasks, cpt, 0),
                        PlacementRequest.MemoryAsk.NONE,
                        PlacementRequest.NodeChoice.ANY,
                        new GresDemand(
                                perNode == 0 ? List.of() : List.of(new GresDemand.Item("gpu", "", perNode)),
                                perTask,
                                "",
                                0,
                                "",
                                0,
                                0),
                        enforce));
    }

    @Property(tries = 2000)
    void everyCoreIsFreeAndGivenOnce(
            @ForAll("clusters") List<NodeCapacity> cluster, @ForAll("requests") PlacementRequest request) {
        if (Allocator.place(cluster, request) instanceof PlacementResult.Placed placed) {
            for (Allocation.NodeShare share : placed.allocation().nodes()) {
                NodeCapacity node = byName(cluster, share.node());
                assertThat(share.cores()).doesNotHaveDuplicates().isSorted();
                assertThat(share.cores().size() * node.hardware().threadsPerCore())
                        .isEqualTo(share.cpus());
                for (int core : share.cores()) {
                    assertThat(core).isBetween(0, node.cores() - 1);
                    assertThat(node.busyCores().contains(core))
                            .as("core %d already held", core)
                            .isFalse();
                }
            }
        }
    }

    @Property(tries = 2000)
    void enforceBindingGivesOnlyCoresNearTheJobsGpus(
            @ForAll("clusters") List<NodeCapacity> cluster, @ForAll("requests") PlacementRequest request) {
        if (request.enforceBinding() && Allocator.place(cluster, request) instanceof PlacementResult.Placed placed) {
            for (Allocation.NodeShare share : placed.allocation().nodes()) {
                NodeCapacity node = byName(cluster, share.node());
                Set<Integer> near = new HashSet<>();
                boolean anyCore = false;
                for (GresGrant g : share.gres()) {
                    for (int index : g.indices()) {
                        List<Integer> cores =
                                node.gres().inventory().named("gpu").get(index).cores();
                        anyCore |= cores.isEmpty();
                        near.addAll(cores);
                    }
                }
                if (!share.gres().isEmpty() && !anyCore) {
                    assertThat(near).containsAll(share.cores());
                }
            }
        }
    }

    @Property(tries = 1000)
    void pendingWouldFitAnIdleCluster(
            @ForAll("clusters") List<NodeCapacity> cluster, @ForAll("requests") PlacementRequest request) {
        if (Allocator.place(cluster, request) instanceof PlacementResult.Pending pending
                && pending.reason().equals("Resources")) {
            List<NodeCapacity> idle = cluster.stream().map(NodeCapacity::empty).toList();
            assertThat(Allocator.place(idle, request)).isInstanceOf(PlacementResult.Placed.class);
        }
    }

    private static NodeCapacity byName(List<NodeCapacity> cluster, String name) {
        return cluster.stream().filter(n -> n.name().equals(name)).findFirst().orElseThrow();
    }
}
