package dev.sluice.ctld.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ctld.state.Allocation;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Step nodes and tasks per node, against real Slurm 22.05 (compat 011, 012, 038). */
class TestStepLayout {
    private static Allocation nodes(int... cpus) {
        List<Allocation.NodeShare> shares = new java.util.ArrayList<>();
        for (int i = 0; i < cpus.length; i++) {
            shares.add(Allocation.NodeShare.withGres("n" + (i + 1), cpus[i], 1000, cpus[i], List.of()));
        }
        return new Allocation(shares);
    }

    @Test
    void blockSpreadsTasksEvenlyWithinEachNodesCpus() {
        // sbatch -n4 -c2 (4 CPUs on each of two nodes), srun -n4: 0,1 on n1 and 2,3 on n2.
        StepLayout.Layout even = StepLayout.of(nodes(4, 4), 4, 2, 1, List.of(), 0);
        assertThat(even.nodes()).containsExactly(0, 1);
        assertThat(even.tasksPerNode()).containsExactly(2, 2);
        // Fewer CPUs on one node: it keeps fewer tasks.
        assertThat(StepLayout.of(nodes(3, 1), 4, 2, 1, List.of(), 0).tasksPerNode())
                .containsExactly(3, 1);
        assertThat(StepLayout.of(nodes(2, 2), 3, 2, 1, List.of(), 0).tasksPerNode())
                .containsExactly(2, 1);
    }

    @Test
    void minusRStartsAtTheJobsNthNodeAndMinusWPicksNamedOnes() {
        assertThat(StepLayout.of(nodes(1, 1), 1, 1, 1, List.of(), 1).nodes()).containsExactly(1);
        assertThat(StepLayout.of(nodes(1, 1), 1, 1, 1, List.of("n2"), 0).nodes())
                .containsExactly(1);
        assertThat(StepLayout.of(nodes(1, 1, 1), 2, 2, 1, List.of("n3"), 0).nodes())
                .containsExactly(0, 2);
    }

    @Test
    void whatTheJobCannotHoldIsRefused() {
        assertThatThrownBy(() -> StepLayout.of(nodes(1, 1), 3, 2, 1, List.of(), 0))
                .hasMessage("More processors requested than permitted");
        assertThatThrownBy(() -> StepLayout.of(nodes(1, 1), 1, 1, 1, List.of("n9"), 0))
                .hasMessage("Requested node configuration is not available");
        assertThatThrownBy(() -> StepLayout.of(nodes(1, 1), 3, 3, 1, List.of(), 0))
                .hasMessage("Requested node configuration is not available");
        assertThatThrownBy(() -> StepLayout.of(nodes(1, 1), 2, 2, 1, List.of(), 1))
                .hasMessage("Requested node configuration is not available");
    }

    @Test
    void withoutANodeCountAsFewNodesAsTheTasksCpusNeed() {
        assertThat(StepLayout.of(nodes(4, 4), 4, 0, 1, List.of(), 0).nodes()).containsExactly(0);
        assertThat(StepLayout.of(nodes(4, 4), 5, 0, 1, List.of(), 0).tasksPerNode())
                .containsExactly(3, 2);
    }
}
