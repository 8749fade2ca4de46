package dev.sluice.ctld.sched;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ctld.gres.GresInventory;
import dev.sluice.ctld.gres.GresPool;
import dev.sluice.ctld.select.NodeCapacity;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.CoreSet;
import dev.sluice.ctld.state.NodeHardware;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * The timeline's views are overlays on {@code now}, not copies of it, and its room check sums
 * reservations by node position: both must answer exactly what the definitions give. The reference here is the definition — now, plus every release up to the
 * start, minus every reservation overlapping the interval, applied in order to a copy — checked
 * over random mixes of running jobs, jobs started in the pass, reservations and questions.
 */
class TestAvailabilityTimelineViews {
    private static final NodeHardware HARDWARE = NodeHardware.ofCpus(16, 64_000);

    private record Held(long start, long end, Allocation allocation) {}

    @Property(tries = 200)
    void viewsAreWhatACopyWouldHold(@ForAll long seed) {
        Random random = new Random(seed);
        int nodeCount = 1 + random.nextInt(12);
        Map<String, NodeCapacity> now = new LinkedHashMap<>();
        for (int i = 0; i < nodeCount; i++) {
            String name = "n" + i;
            now.put(
                    name,
                    new NodeCapacity(
                            name,
                            HARDWARE,
                            16,
                            64_000,
                            true,
                            true,
                            List.of(),
                            1,
                            GresPool.idle(GresInventory.NONE),
                            CoreSet.EMPTY));
        }
        // A partition of some of the nodes (and one the cluster lacks), for room().
        Set<String> partition = new HashSet<>(Set.of("n" + nodeCount));
        for (String name : now.keySet()) {
            if (random.nextBoolean()) {
                partition.add(name);
            }
        }
        AvailabilityTimeline timeline = new AvailabilityTimeline(now);
        Map<String, NodeCapacity> live = new LinkedHashMap<>(now);
        List<Held> releases = new ArrayList<>();
        List<Held> reservations = new ArrayList<>();
        for (int step = 0; step < 40; step++) {
            Allocation a = allocation(random, nodeCount);
            long t = random.nextInt(100);
            long end = t + 1 + random.nextInt(100);
            switch (random.nextInt(4)) {
                case 0 -> {
                    timeline.running(a, end);
                    releases.add(new Held(0, end, a));
                }
                case 1 -> {
                    timeline.started(a, end);
                    for (Allocation.NodeShare s : a.nodes()) {
                        live.computeIfPresent(s.node(), (k, n) -> n.minus(s));
                    }
                    releases.add(new Held(0, end, a));
                }
                case 2 -> {
                    timeline.reserve(a, t, end);
                    reservations.add(new Held(t, end, a));
                }
                default -> {
                    // Asked twice: the second answer may come from a cache and must still be right.
                    for (int ask = 0; ask < 2; ask++) {
                        Map<String, NodeCapacity> view = timeline.capacityFor(t, end);
                        Map<String, NodeCapacity> expected = reference(live, releases, reservations, t, end);
                        assertThat(new ArrayList<>(view.entrySet())).isEqualTo(new ArrayList<>(expected.entrySet()));
                        for (String name : expected.keySet()) {
                            assertThat(view.get(name)).isEqualTo(expected.get(name));
                        }
                        assertThat(view.get("absent")).isNull();
                        assertThat(view).hasSize(expected.size());
                    }
                    // The reservation search's cheap check: what the partition has free in that view.
                    boolean gpus = random.nextBoolean();
                    Room room = timeline.room(t, end, "p", partition, gpus);
                    Room sum = Room.NONE;
                    for (Map.Entry<String, NodeCapacity> e :
                            reference(live, releases, reservations, t, end).entrySet()) {
                        if (partition.contains(e.getKey())) {
                            sum = sum.plus(Room.of(e.getValue()));
                        }
                    }
                    // GPUs are counted only when asked for (a CPU job's check reads no devices).
                    assertThat(room.cpus()).isEqualTo(sum.cpus());
                    if (gpus) {
                        assertThat(room.gpus()).isEqualTo(sum.gpus());
                    }
                }
            }
        }
    }

    private static Map<String, NodeCapacity> reference(
            Map<String, NodeCapacity> live, List<Held> releases, List<Held> reservations, long start, long end) {
        Map<String, NodeCapacity> out = new LinkedHashMap<>(live);
        List<Held> sorted = new ArrayList<>(releases);
        sorted.sort(Comparator.comparingLong(Held::end));
        for (Held r : sorted) {
            if (r.end() <= start) {
                r.allocation().nodes().forEach(s -> out.computeIfPresent(s.node(), (k, n) -> n.plus(s)));
            }
        }
        for (Held r : reservations) {
            if (r.start() < end && start < r.end()) {
                r.allocation().nodes().forEach(s -> out.computeIfPresent(s.node(), (k, n) -> n.minus(s)));
            }
        }
        return out;
    }

    private static Allocation allocation(Random random, int nodeCount) {
        List<Allocation.NodeShare> shares = new ArrayList<>();
        int n = 1 + random.nextInt(Math.min(3, nodeCount));
        int first = random.nextInt(nodeCount + 1); // nodeCount names a node the cluster lacks
        for (int i = 0; i < n; i++) {
            int cpus = 1 + random.nextInt(4);
            shares.add(Allocation.NodeShare.of("n" + ((first + i) % (nodeCount + 1)), cpus, 1000L * cpus, 1));
        }
        return new Allocation(shares);
    }
}
