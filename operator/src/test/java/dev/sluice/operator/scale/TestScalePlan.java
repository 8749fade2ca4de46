package dev.sluice.operator.scale;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.scalein.ScaleInRanking;
import dev.sluice.common.scalein.ScaleInRanking.Candidate;
import dev.sluice.operator.scale.ScalePlan.Actions;
import dev.sluice.operator.scale.ScalePlan.PodView;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class TestScalePlan {
    private static final long NOW = 1_000_000;

    private static PodView active(int ordinal) {
        return new PodView("n-" + ordinal, ordinal, Optional.empty(), false);
    }

    private static PodView drained(int ordinal, long at) {
        return new PodView("n-" + ordinal, ordinal, Optional.of(at), false);
    }

    /** Ranking with {@code limitEnds[i]} the end of node i's job (0: idle). */
    private static List<Candidate> ranking(long... limitEnds) {
        List<ScaleInRanking.NodeSlot> slots = new ArrayList<>();
        List<ScaleInRanking.RunningJob> jobs = new ArrayList<>();
        for (int i = 0; i < limitEnds.length; i++) {
            slots.add(new ScaleInRanking.NodeSlot("n-" + i, false));
            if (limitEnds[i] > 0) {
                jobs.add(new ScaleInRanking.RunningJob(List.of("n-" + i), limitEnds[i]));
            }
        }
        return ScaleInRanking.rank(slots, jobs, NOW);
    }

    @Test
    void scaleOutCreatesTheLowestFreeOrdinals() {
        Actions a = ScalePlan.plan(4, List.of(active(0), active(2)), ranking(0, 0, 0), NOW, 60);
        assertThat(a.create()).containsExactly(1, 3);
        assertThat(a.drain()).isEmpty();
    }

    @Test
    void scaleInDrainsIdleNodesBeforeBusyOnesAndUnregisteredFirst() {
        List<PodView> pods = List.of(active(0), active(1), active(2), active(3));
        // n-3 has not registered: not in the ranking.
        List<Candidate> r = ranking(NOW + 100, NOW + 50, 0).stream().toList();
        assertThat(ScalePlan.plan(2, pods, r, NOW, 60).drain()).containsExactly("n-3", "n-2");
        assertThat(ScalePlan.plan(1, pods, r, NOW, 60).drain()).containsExactly("n-3", "n-2", "n-1");
    }

    @Test
    void aDrainedNodeGoesWhenIdleOrWhenItsGraceIsOver() {
        List<PodView> pods = List.of(active(0), drained(1, NOW - 10), drained(2, NOW - 60));
        Actions a = ScalePlan.plan(1, pods, ranking(0, NOW + 500, NOW + 500), NOW, 60);
        assertThat(a.delete()).containsExactly("n-2");
        Actions idle = ScalePlan.plan(1, pods, ranking(0, 0, NOW + 500), NOW, 600);
        assertThat(idle.delete()).containsExactly("n-1");
    }

    @Test
    void scaleOutResumesTheBusiestDrainingNodeBeforeCreating() {
        List<PodView> pods = List.of(active(0), drained(1, NOW), drained(2, NOW));
        Actions a = ScalePlan.plan(2, pods, ranking(0, 0, NOW + 500), NOW, 600);
        assertThat(a.resume()).containsExactly("n-2");
        assertThat(a.create()).isEmpty();
        assertThat(a.delete()).containsExactly("n-1");
    }

    @Test
    void terminatingPodsKeepTheirOrdinalButDoNotCount() {
        List<PodView> pods = List.of(new PodView("n-0", 0, Optional.empty(), true), active(1));
        assertThat(ScalePlan.plan(2, pods, ranking(0, 0), NOW, 60).create()).containsExactly(2);
    }

    private static PodView pod(int ordinal, boolean replacing, boolean outdated, boolean ready, Long drainedAt) {
        return new PodView("n-" + ordinal, ordinal, Optional.ofNullable(drainedAt), false, replacing, outdated, ready);
    }

    @Test
    void aRollingUpdateReplacesOutdatedNodesLeastWorkFirstWithinMaxUnavailable() {
        List<PodView> pods = List.of(
                pod(0, false, true, true, null), pod(1, false, true, true, null), pod(2, false, true, true, null));
        List<Candidate> r = ranking(NOW + 500, 0, NOW + 100);
        assertThat(ScalePlan.plan(3, pods, r, NOW, 600, 1).replace()).containsExactly("n-1");
        assertThat(ScalePlan.plan(3, pods, r, NOW, 600, 2).replace()).containsExactly("n-1", "n-2");
        assertThat(ScalePlan.plan(3, pods, r, NOW, 600, 0).replace()).isEmpty();
        // One being replaced, or one not ready, uses up maxUnavailable 1.
        List<PodView> busy = List.of(
                pod(0, false, true, true, null), pod(1, true, false, true, NOW), pod(2, false, true, true, null));
        assertThat(ScalePlan.plan(3, busy, r, NOW, 600, 1).replace()).isEmpty();
        List<PodView> starting = List.of(
                pod(0, false, true, true, null), pod(1, false, false, false, null), pod(2, false, true, true, null));
        assertThat(ScalePlan.plan(3, starting, r, NOW, 600, 1).replace()).isEmpty();
    }

    @Test
    void aReplacedPodIsDeletedWhenIdleAndItsOrdinalComesBack() {
        List<PodView> pods = List.of(pod(0, false, false, true, null), pod(1, true, false, true, NOW));
        Actions waiting = ScalePlan.plan(2, pods, ranking(0, NOW + 500), NOW, 600, 1);
        assertThat(waiting.idle()).isTrue();
        Actions done = ScalePlan.plan(2, pods, ranking(0, 0), NOW, 600, 1);
        assertThat(done.delete()).containsExactly("n-1");
        assertThat(done.create()).isEmpty();
        Actions after = ScalePlan.plan(2, List.of(pod(0, false, false, true, null)), ranking(0), NOW, 600, 1);
        assertThat(after.create()).containsExactly(1);
    }

    /** Whatever the load, no drained node has more work ahead than a node kept in service. */
    @Property
    void neverDrainsABusierNodeWhileALessBusyOneStays(
            @ForAll @Size(min = 1, max = 12) List<@IntRange(min = 0, max = 5) Integer> loads,
            @ForAll @IntRange(min = 0, max = 12) int replicas) {
        long[] ends = new long[loads.size()];
        List<PodView> pods = new ArrayList<>();
        for (int i = 0; i < loads.size(); i++) {
            ends[i] = loads.get(i) == 0 ? 0 : NOW + loads.get(i) * 100L;
            pods.add(active(i));
        }
        Actions a = ScalePlan.plan(replicas, pods, ranking(ends), NOW, 60);
        assertThat(a.drain()).hasSize(Math.max(0, loads.size() - replicas));
        long maxDrained = a.drain().stream()
                .mapToLong(n -> ends[Integer.parseInt(n.substring(2))])
                .max()
                .orElse(0);
        for (int i = 0; i < loads.size(); i++) {
            if (!a.drain().contains("n-" + i)) {
                assertThat(ends[i]).isGreaterThanOrEqualTo(maxDrained);
            }
        }
    }
}
