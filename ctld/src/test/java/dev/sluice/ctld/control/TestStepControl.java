package dev.sluice.ctld.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.common.error.SlurmException;
import dev.sluice.ctld.control.StepControl.ActiveStep;
import dev.sluice.ctld.control.StepControl.Outcome;
import dev.sluice.ctld.gres.GresGrant;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.StepShare;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TestStepControl {
    private static final Allocation FOUR_GPUS = new Allocation(List.of(Allocation.NodeShare.withGres(
            "node1", 4, 4000, 4, List.of(new GresGrant("gpu", "", List.of(0, 1, 2, 3), 4)))));
    private static final Allocation TWO_NODES = new Allocation(List.of(
            Allocation.NodeShare.withGres("node1", 2, 2000, 1, List.of(new GresGrant("gpu", "", List.of(0, 1), 2))),
            Allocation.NodeShare.withGres("node2", 2, 2000, 1, List.of(new GresGrant("gpu", "", List.of(0, 1), 2)))));

    private static List<StepShare> placed(Outcome outcome) {
        assertThat(outcome).isInstanceOf(Outcome.Placed.class);
        return ((Outcome.Placed) outcome).shares();
    }

    private static List<Integer> gpus(StepShare share) {
        return share.gres().stream()
                .filter(g -> g.name().equals("gpu"))
                .flatMap(g -> g.indices().stream())
                .toList();
    }

    @Test
    void exclusiveStepsGetDisjointGpusAndWaitWhenNoneAreFree() {
        List<ActiveStep> active = new ArrayList<>();
        List<StepShare> a =
                placed(StepControl.place(FOUR_GPUS, active, StepControl.StepRequest.anywhere(2, 0, 0, "gpu:2", true)));
        active.add(new ActiveStep(0, true, a));
        List<StepShare> b =
                placed(StepControl.place(FOUR_GPUS, active, StepControl.StepRequest.anywhere(1, 0, 0, "gpu:1", true)));
        active.add(new ActiveStep(1, true, b));
        List<StepShare> c =
                placed(StepControl.place(FOUR_GPUS, active, StepControl.StepRequest.anywhere(1, 0, 0, "gpu:1", true)));
        active.add(new ActiveStep(2, true, c));
        assertThat(gpus(a.get(0))).containsExactly(0, 1);
        assertThat(gpus(b.get(0))).containsExactly(2);
        assertThat(gpus(c.get(0))).containsExactly(3);
        assertThat(a.get(0).taskIds()).containsExactly(0, 1);
        assertThat(StepControl.place(FOUR_GPUS, active, StepControl.StepRequest.anywhere(1, 0, 0, "gpu:1", true)))
                .isInstanceOf(Outcome.Busy.class);
        // A step that does not ask for exclusivity overlaps everything.
        assertThat(gpus(placed(StepControl.place(
                                FOUR_GPUS, active, StepControl.StepRequest.anywhere(1, 0, 0, "gpu:1", false)))
                        .get(0)))
                .containsExactly(0);
        active.remove(1);
        assertThat(gpus(placed(StepControl.place(
                                FOUR_GPUS, active, StepControl.StepRequest.anywhere(1, 0, 0, "gpu:1", true)))
                        .get(0)))
                .containsExactly(2);
    }

    @Test
    void exclusiveStepsHoldCpus() {
        List<ActiveStep> active = new ArrayList<>();
        active.add(new ActiveStep(
                0,
                true,
                placed(StepControl.place(FOUR_GPUS, active, StepControl.StepRequest.anywhere(3, 0, 0, "", true)))));
        assertThat(StepControl.place(FOUR_GPUS, active, StepControl.StepRequest.anywhere(2, 0, 0, "", true)))
                .isInstanceOf(Outcome.Busy.class);
        assertThat(StepControl.place(FOUR_GPUS, active, StepControl.StepRequest.anywhere(1, 0, 0, "", true)))
                .isInstanceOf(Outcome.Placed.class);
    }

    @Test
    void aStepGetsAllTheJobsGresByDefaultAndSpansNodesInBlocks() {
        List<StepShare> shares = placed(
                StepControl.place(TWO_NODES, List.of(), StepControl.StepRequest.anywhere(2, 2, 0, "gpu:2", false)));
        assertThat(shares).extracting(StepShare::node).containsExactly("node1", "node2");
        assertThat(shares).extracting(StepShare::nodeId).containsExactly(0, 1);
        assertThat(gpus(shares.get(0))).containsExactly(0, 1);
        assertThat(gpus(shares.get(1))).containsExactly(0, 1);
        List<StepShare> all =
                placed(StepControl.place(FOUR_GPUS, List.of(), StepControl.StepRequest.anywhere(1, 0, 0, "", false)));
        assertThat(gpus(all.get(0))).containsExactly(0, 1, 2, 3);
        List<StepShare> three =
                placed(StepControl.place(TWO_NODES, List.of(), StepControl.StepRequest.anywhere(3, 2, 0, "", false)));
        assertThat(three.get(0).taskIds()).containsExactly(0, 1);
        assertThat(three.get(1).taskIds()).containsExactly(2);
    }

    @Test
    void whatTheJobDoesNotHaveIsRefusedNotAwaited() {
        assertThatThrownBy(() -> StepControl.place(
                        FOUR_GPUS, List.of(), StepControl.StepRequest.anywhere(1, 0, 0, "gpu:5", true)))
                .isInstanceOf(SlurmException.class)
                .hasMessage("Invalid generic resource (gres) specification");
        assertThatThrownBy(() ->
                        StepControl.place(FOUR_GPUS, List.of(), StepControl.StepRequest.anywhere(5, 0, 0, "", false)))
                .hasMessage("More processors requested than permitted");
        assertThatThrownBy(() ->
                        StepControl.place(FOUR_GPUS, List.of(), StepControl.StepRequest.anywhere(1, 2, 0, "", false)))
                .hasMessage("Requested node configuration is not available");
        assertThatThrownBy(() -> StepControl.place(
                        FOUR_GPUS, List.of(), StepControl.StepRequest.anywhere(1, 0, 0, "gpu:x:y:z", false)))
                .isInstanceOf(SlurmException.class);
    }

    @Test
    void anMpsShareOfTheJobIsHandedToTheStep() {
        Allocation mps = new Allocation(List.of(
                Allocation.NodeShare.withGres("node1", 1, 1000, 1, List.of(new GresGrant("mps", "", List.of(2), 50)))));
        StepShare share = placed(
                        StepControl.place(mps, List.of(), StepControl.StepRequest.anywhere(1, 0, 0, "mps:25", true)))
                .get(0);
        assertThat(share.gres()).containsExactly(new GresGrant("mps", "", List.of(2), 25));
        assertThatThrownBy(() ->
                        StepControl.place(mps, List.of(), StepControl.StepRequest.anywhere(1, 0, 0, "mps:60", true)))
                .hasMessage("Invalid generic resource (gres) specification");
    }
}
