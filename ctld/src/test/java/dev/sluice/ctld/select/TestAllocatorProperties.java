package dev.sluice.ctld.select;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.gres.GresSpec;
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

/** Safety properties of placement: "something bad never happens" to a core, a byte or a GPU. */
class TestAllocatorProperties {
    @Provide
    Arbitrary<List<NodeCapacity>> clusters() {
        Arbitrary<NodeCapacity> node = Combinators.combine(
                        Arbitraries.of(1, 2),
                        Arbitraries.integers().between(1, 16),
                        Arbitraries.integers().between(0, 100),
                        Arbitraries.integers().between(0, 100),
                        Arbitraries.of(true, true, true, false),
                        Arbitraries.integers().between(0, 4),
                        Arbitraries.integers().between(0, 15))
                .as((threads, cores, usedPct, memPct, up, gpus, usedGpuMask) -> {
                    int cpus = threads * cores;
                    int used = cpus * usedPct / 100;
                    long mem = 1000L * cores;
                    GresInventory inv =
                            GresInventory.of(GresSpec.parseNodeList(gpus == 0 ? "" : "gpu:" + gpus), List.of());
                    Map<String, Long> busy = new HashMap<>();
                    for (GresUnit u : inv.units()) {
                        if ((usedGpuMask & (1 << u.index())) != 0) {
                            busy.put(u.key(), 1L);
                        }
                    }
                    return new NodeCapacity(
                            "n",
                            new NodeHardware(cpus, 1, 1, cores, threads, mem, 0),
                            cpus - used,
                            mem - mem * memPct / 100,
                            used == 0 && busy.isEmpty(),
                            up,
                            List.of(),
                            1,
                            new GresPool(inv, busy),
                            CoreSet.EMPTY);
                });
        return node.list().ofMinSize(1).ofMaxSize(12).map(TestAllocatorProperties::named);
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
                    CoreSet.EMPTY));
        }
        return out;
    }

    @Provide
    Arbitrary<PlacementRequest> requests() {
        Arbitrary<GresDemand> gres = Combinators.combine(
                        Arbitraries.integers().between(0, 3),
                        Arbitraries.integers().between(0, 1),
                        Arbitraries.integers().between(0, 5))
                .as((perNode, perTask, perJob) -> new GresDemand(
                        perNode == 0 ? List.of() : List.of(new GresDemand.Item("gpu", "", perNode)),
                        perTask,
                        "",
                        perJob,
                        "",
                        0,
                        0));
        return Combinators.combine(
                        Arbitraries.integers().between(1, 4),
                        Arbitraries.integers().between(1, 40),
                        Arbitraries.integers().between(1, 6),
                        Arbitraries.integers().between(0, 800),
                        Arbitraries.of(true, false),
                        Arbitraries.of(false, false, false, true),
                        Arbitraries.of(Set.<String>of(), Set.of("n0"), Set.of("n1", "n2")),
                        gres)
                .as((nodes, tasks, cpt, memPerCpu, memory, exclusive, excluded, demand) -> new PlacementRequest(
                        new PlacementRequest.Shape(nodes, nodes + 1, tasks, cpt, 0),
                        new PlacementRequest.MemoryAsk(0, memPerCpu, memory),
                        new PlacementRequest.NodeChoice(exclusive, Set.of(), excluded, FeatureConstraint.NONE),
                        demand,
                        false));
    }

    /**
     * The cursor path gives the allocator's own answer while the cluster fills up: each placed
     * job is taken off the nodes, as within a scheduling pass, and the same cursor is kept.
     */
    @Property(tries = 1000)
    void placingFromACursorAnswersAsAFullSearchWhileNodesFill(
            @ForAll("clusters") List<NodeCapacity> cluster, @ForAll("requests") PlacementRequest asked) {
        PlacementRequest request = asked.withNodes(
                new PlacementRequest.NodeChoice(asked.exclusive(), Set.of(), Set.of(), FeatureConstraint.NONE));
        if (Allocator.rejection(cluster, request) != null) {
            return;
        }
        int[] cursor = new int[1];
        List<NodeCapacity> nodes = new ArrayList<>(cluster);
        for (int round = 0; round < 6; round++) {
            PlacementResult full = Allocator.placeFeasible(nodes, request);
            assertThat(Allocator.placeFrom(nodes, request, cursor)).isEqualTo(full);
            if (!(full instanceof PlacementResult.Placed placed)) {
                return;
            }
            for (Allocation.NodeShare share : placed.allocation().nodes()) {
                for (int i = 0; i < nodes.size(); i++) {
                    if (nodes.get(i).name().equals(share.node())) {
                        nodes.set(i, nodes.get(i).minus(share));
                    }
                }
            }
        }
    }

    @Property(tries = 2000)
    void neverOverAllocates(
            @ForAll("clusters") List<NodeCapacity> cluster, @ForAll("requests") PlacementRequest request) {
        Map<String, NodeCapacity> byName = new HashMap<>();
        cluster.forEach(n -> byName.put(n.name(), n));
        if (Allocator.place(cluster, request) instanceof PlacementResult.Placed placed) {
            Allocation a = placed.allocation();
            assertThat(a.nodes().size()).isBetween(request.minNodes(), request.maxNodes());
            assertThat(a.nodes().stream().mapToInt(Allocation.NodeShare::tasks).sum())
                    .isEqualTo(request.tasks());
            long gpusPerNode = request.gres().perNode().stream()
                    .mapToLong(GresDemand.Item::count)
                    .sum();
            for (Allocation.NodeShare share : a.nodes()) {
                NodeCapacity node = byName.get(share.node());
                assertThat(node.schedulable()).isTrue();
                assertThat(request.excludedNodes()).doesNotContain(share.node());
                assertThat(share.cpus()).isLessThanOrEqualTo(node.freeCpus());
                assertThat(share.cpus()).isGreaterThanOrEqualTo(share.tasks() * request.cpusPerTask());
                assertThat(share.cpus() % node.hardware().threadsPerCore()).isZero();
                assertThat(share.cores()).doesNotHaveDuplicates().allMatch(c -> c >= 0 && c < node.cores());
                if (!request.exclusive()) {
                    assertThat(share.cores().size() * node.hardware().threadsPerCore())
                            .isEqualTo(share.cpus());
                }
                if (request.memoryConsumable()) {
                    assertThat(share.memoryMb()).isLessThanOrEqualTo(node.freeMemoryMb());
                }
                Set<Integer> given = new HashSet<>();
                for (GresGrant g : share.gres()) {
                    for (int index : g.indices()) {
                        assertThat(given.add(index))
                                .as("GPU %d given twice", index)
                                .isTrue();
                        GresUnit unit = node.gres().inventory().named("gpu").get(index);
                        assertThat(node.gres().used(unit))
                                .as("GPU %d already in use", index)
                                .isZero();
                    }
                }
                assertThat((long) given.size())
                        .isGreaterThanOrEqualTo(gpusPerNode + request.gres().gpusPerTask() * share.tasks());
            }
            assertThat(a.totalGres("gpu")).isGreaterThanOrEqualTo(request.gres().gpusPerJob());
            assertThat(a.nodeNames()).doesNotHaveDuplicates();
        }
    }

    @Property(tries = 500)
    void sameInputSameAnswer(
            @ForAll("clusters") List<NodeCapacity> cluster, @ForAll("requests") PlacementRequest request) {
        assertThat(Allocator.place(cluster, request)).isEqualTo(Allocator.place(cluster, request));
    }

    @Property(tries = 1000)
    void rejectedNeverFitsEvenAnIdleCluster(
            @ForAll("clusters") List<NodeCapacity> cluster, @ForAll("requests") PlacementRequest request) {
        if (Allocator.place(cluster, request) instanceof PlacementResult.Rejected) {
            List<NodeCapacity> idle = cluster.stream().map(NodeCapacity::empty).toList();
            assertThat(Allocator.place(idle, request)).isInstanceOf(PlacementResult.Rejected.class);
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
}
