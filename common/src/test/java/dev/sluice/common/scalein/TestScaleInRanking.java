package dev.sluice.common.scalein;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.scalein.ScaleInRanking.Candidate;
import dev.sluice.common.scalein.ScaleInRanking.NodeSlot;
import dev.sluice.common.scalein.ScaleInRanking.RunningJob;
import java.util.List;
import org.junit.jupiter.api.Test;

class TestScaleInRanking {
    private static final long NOW = 1_000_000;

    private static NodeSlot up(String name) {
        return new NodeSlot(name, false);
    }

    private static List<String> order(List<Candidate> ranked) {
        return ranked.stream().map(Candidate::name).toList();
    }

    @Test
    void idleNodesComeFirstThenTheSoonestFree() {
        List<Candidate> ranked = ScaleInRanking.rank(
                List.of(up("n1"), up("n2"), up("n3"), up("n4")),
                List.of(
                        new RunningJob(List.of("n1"), NOW + 600),
                        new RunningJob(List.of("n2"), NOW + 60),
                        new RunningJob(List.of("n4"), ScaleInRanking.UNLIMITED)),
                NOW);
        assertThat(order(ranked)).containsExactly("n3", "n2", "n1", "n4");
        assertThat(ranked).extracting(Candidate::rank).containsExactly(1, 2, 3, 4);
        assertThat(ranked.get(0).freeInSeconds()).isZero();
        assertThat(ranked.get(0).freeAt()).isZero();
        assertThat(ranked.get(1).freeInSeconds()).isEqualTo(60);
        assertThat(ranked.get(3).unlimited()).isTrue();
    }

    @Test
    void aNodeFreesWhenItsLastJobReachesItsLimit() {
        List<Candidate> ranked = ScaleInRanking.rank(
                List.of(up("a"), up("b")),
                List.of(
                        new RunningJob(List.of("a", "b"), NOW + 100),
                        new RunningJob(List.of("a"), NOW + 900),
                        new RunningJob(List.of("b"), NOW + 50)),
                NOW);
        assertThat(order(ranked)).containsExactly("b", "a");
        assertThat(ranked.get(0).freeInSeconds()).isEqualTo(100);
        assertThat(ranked.get(0).jobs()).isEqualTo(2);
        assertThat(ranked.get(1).freeAt()).isEqualTo(NOW + 900);
    }

    @Test
    void atEqualTimeDrainedNodesThenFewerJobsThenConfigOrder() {
        List<Candidate> ranked = ScaleInRanking.rank(
                List.of(up("n1"), up("n2"), new NodeSlot("n3", true), up("n4"), up("n5")),
                List.of(
                        new RunningJob(List.of("n1"), NOW + 300),
                        new RunningJob(List.of("n1"), NOW + 300),
                        new RunningJob(List.of("n2"), NOW + 300),
                        new RunningJob(List.of("n3"), NOW + 300),
                        new RunningJob(List.of("n4"), NOW + 300),
                        new RunningJob(List.of("n5"), NOW + 300)),
                NOW);
        assertThat(order(ranked)).containsExactly("n3", "n2", "n4", "n5", "n1");
    }

    @Test
    void aJobPastItsLimitCountsAsFreeNowAndUnknownNodesAreIgnored() {
        List<Candidate> ranked = ScaleInRanking.rank(
                List.of(up("n1"), up("n2")),
                List.of(new RunningJob(List.of("n2"), NOW - 30), new RunningJob(List.of("other"), NOW + 5)),
                NOW);
        assertThat(ranked).extracting(Candidate::freeInSeconds).containsExactly(0L, 0L);
        // Both free now; n1 runs nothing, so it goes first.
        assertThat(order(ranked)).containsExactly("n1", "n2");
    }

    @Test
    void limitEndTreatsSlurmInfiniteAndNoValAsUnlimited() {
        assertThat(ScaleInRanking.limitEnd(NOW, 60)).isEqualTo(NOW + 3600);
        assertThat(ScaleInRanking.limitEnd(NOW, 0xffffffffL)).isEqualTo(ScaleInRanking.UNLIMITED);
        assertThat(ScaleInRanking.limitEnd(NOW, 0xfffffffeL)).isEqualTo(ScaleInRanking.UNLIMITED);
    }

    @Test
    void noNodesNoCandidates() {
        assertThat(ScaleInRanking.rank(List.of(), List.of(new RunningJob(List.of("n1"), NOW)), NOW))
                .isEmpty();
    }
}
