package dev.sluice.ctld.control;

import static dev.sluice.ctld.Builders.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.ControlHarness;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.Reservation;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.ctld.wire.ReservationWire;
import dev.sluice.protocol.v1.ReservationInfo;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code NodeCnt=N CoreCnt=...} on two idle 4-core nodes, as Slurm 22.05 counted the cores
 * (compat 290, 291): the expected holdings are those recorded there.
 */
class TestCountedCores {
    private static final long NOW = 1_000_000;
    private static final Caller ROOT = Caller.of(0, 0, "root");
    private static final ReservationControl.Directory DIRECTORY =
            new ReservationControl.Directory(u -> u.equals("alice"), a -> false);

    private ControlHarness harness;
    private ClusterState state;

    @BeforeEach
    void cluster() {
        ClusterFixture cluster =
                ClusterFixture.aCluster().nodes(2).cpus(4).at(NOW - 100, NOW).build();
        state = cluster.state();
        harness = new ControlHarness(cluster.sequence());
    }

    /** {@code NodeCnt=nodes CoreCnt=counts} (one count, or one per node), made and returned. */
    private Reservation made(String name, int nodes, Integer... counts) {
        ReservationSpec.Builder b = ReservationSpec.builder(name)
                .start(NOW)
                .durationMinutes(60L)
                .users("alice")
                .nodeCount(nodes)
                .coreCount(List.of(counts).stream().mapToInt(Integer::intValue).sum());
        if (counts.length > 1) {
            b.coresPerNode(List.of(counts));
        }
        return made(b.build());
    }

    private Reservation made(ReservationSpec spec) {
        harness.apply(state, ReservationControl.create(state, ROOT, spec, DIRECTORY, NOW));
        return state.reservations().find(spec.name(), NOW).orElseThrow();
    }

    private void delete(String name) {
        harness.apply(state, ReservationControl.delete(state, ROOT, name, NOW));
    }

    private ErrorCode refusal(String name, int nodes, Integer... counts) {
        try {
            made(name, nodes, counts);
        } catch (SlurmException e) {
            return e.code();
        }
        throw new AssertionError("not refused");
    }

    private void running(int id, String node, List<Integer> cores) {
        harness.replay(state, new StateRecord.JobSubmitted(id, aJob().build(), "p", 30, NOW - 10));
        harness.replay(
                state,
                new StateRecord.JobStarted(
                        id,
                        new Allocation(List.of(new Allocation.NodeShare(node, cores.size(), 0, 1, List.of(), cores))),
                        "p",
                        30,
                        NOW - 5));
    }

    @Test
    void oneCountIsSpreadOverTheNodesWithSlurmsExtraCores() {
        Reservation two = made("two", 2, 2);
        assertThat(two.cores()).containsExactly(Map.entry("n1", List.of(0)), Map.entry("n2", List.of(0)));
        assertThat(two.coreCount()).isEqualTo(2);
        assertThat(two.has(dev.sluice.common.slurm.ReservationFlag.SPEC_NODES)).isFalse();
        delete("two");
        // Three over two: one each and one more; but Slurm adds back what n1 took beyond its
        // share, so n2 takes all it has (CoreCnt=6).
        Reservation three = made("three", 2, 3);
        assertThat(three.cores()).containsExactly(Map.entry("n1", List.of(0, 1)), Map.entry("n2", List.of(0, 1, 2, 3)));
        assertThat(three.coreCount()).isEqualTo(6);
        delete("three");
        assertThat(made("five", 2, 5).coreCount()).isEqualTo(7);
        delete("five");
        assertThat(made("one", 2, 1).coreCount()).isEqualTo(2);
        delete("one");
        assertThat(made("nine", 2, 9).coreCount()).isEqualTo(8);
        delete("nine");
        // More nodes than the partition has: as many as it has.
        Reservation more = made("more", 3, 3);
        assertThat(more.nodes()).containsExactly("n1", "n2");
        assertThat(more.coreCount()).isEqualTo(6);
    }

    @Test
    void severalCountsOrOneNodeAreACountPerNode() {
        Reservation each = made("each", 2, 1, 2);
        assertThat(each.cores()).containsExactly(Map.entry("n1", List.of(0)), Map.entry("n2", List.of(0, 1)));
        delete("each");
        Reservation single = made("single", 1, 2);
        assertThat(single.nodes()).containsExactly("n1");
        assertThat(single.cores()).containsExactly(Map.entry("n1", List.of(0, 1)));
        delete("single");
        assertThat(refusal("x", 1, 5)).isEqualTo(ErrorCode.NODES_BUSY);
        assertThat(refusal("x", 2, 2, 1, 1)).isEqualTo(ErrorCode.NODES_BUSY);
        assertThat(refusal("x", 2, 5, 1)).isEqualTo(ErrorCode.NODES_BUSY);
        assertThat(refusal("x", 2, 0)).isEqualTo(ErrorCode.NODES_BUSY);
        assertThat(state.reservations().all()).isEmpty();
    }

    @Test
    void jobsCoresAreNotFreeAndANodeAJobFillsIsNoCandidate() {
        running(1, "n1", List.of(0, 1, 2));
        Reservation beside = made("beside", 2, 2);
        assertThat(beside.cores()).containsExactly(Map.entry("n1", List.of(3)), Map.entry("n2", List.of(0)));
        delete("beside");
        Reservation three = made("three", 2, 3);
        assertThat(three.cores()).containsExactly(Map.entry("n1", List.of(3)), Map.entry("n2", List.of(0, 1)));
        delete("three");
        assertThat(refusal("x", 2, 4)).isEqualTo(ErrorCode.NODES_BUSY);
        ReservationSpec ignoring = ReservationSpec.builder("ignoring")
                .start(NOW)
                .durationMinutes(60L)
                .users("alice")
                .nodeCount(2)
                .coreCount(2)
                .flags(List.of("IGNORE_JOBS"))
                .build();
        assertThat(made(ignoring).cores()).containsExactly(Map.entry("n1", List.of(0)), Map.entry("n2", List.of(0)));
        delete("ignoring");
        running(2, "n2", List.of(0, 1, 2, 3));
        assertThat(refusal("x", 2, 2)).isEqualTo(ErrorCode.NODES_BUSY);
        // n2 is no candidate, so NodeCnt=1 is n1's last core (compat 291 had n1 idle: 0-1).
        assertThat(made("n1only", 1, 1).cores()).containsExactly(Map.entry("n1", List.of(3)));
    }

    @Test
    void aNodePassedOverForTooFewCoresKeepsThemInTheCountOnly() {
        // Slurm 22.05 (compat 291): NodeCnt=1 CoreCnt=2 beside a job on three of n1's cores holds
        // n2's cores 0-1 and n1's core 3 too: CoreCnt=3, TRES=cpu=2, CoreIDs= of n2 only.
        running(1, "n1", List.of(0, 1, 2));
        Reservation r = made("passed", 1, 2);
        assertThat(r.nodes()).containsExactly("n2");
        assertThat(r.cores()).containsExactly(Map.entry("n1", List.of(3)), Map.entry("n2", List.of(0, 1)));
        assertThat(r.coreCount()).isEqualTo(3);
        assertThat(r.coresOnNodes()).isEqualTo(2);
        ReservationInfo shown = ReservationWire.toWire(r, true);
        assertThat(shown.getCoreCount()).isEqualTo(3);
        assertThat(shown.getCoresOnNodes()).isEqualTo(2);
        assertThat(shown.getCoresList()).extracting(c -> c.getNode()).containsExactly("n2");
        // Its core of n1 is not free to the next one: n1 has none left, n2 two.
        assertThat(refusal("x", 2, 2)).isEqualTo(ErrorCode.NODES_BUSY);
        assertThat(made("next", 1, 2).cores()).containsExactly(Map.entry("n2", List.of(2, 3)));
    }

    @Test
    void nodesHeldWholeAreSetAsideAndOtherPartialOnesCoresSkipped() {
        made(ReservationSpec.builder("whole")
                .start(NOW)
                .durationMinutes(60L)
                .users("alice")
                .nodes("n1")
                .build());
        // NodeCnt=2 beside a whole n1 is n2 alone, counted as one node (compat 291).
        Reservation alone = made("alone", 2, 2);
        assertThat(alone.cores()).containsExactly(Map.entry("n2", List.of(0, 1)));
        assertThat(made("after", 1, 2).cores()).containsExactly(Map.entry("n2", List.of(2, 3)));
        assertThat(Set.copyOf(state.reservations().all().stream()
                        .map(Reservation::name)
                        .toList()))
                .containsExactlyInAnyOrder("whole", "alone", "after");
    }
}
