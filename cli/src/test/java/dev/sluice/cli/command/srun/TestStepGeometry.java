package dev.sluice.cli.command.srun;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Task and node counts of a step, against real srun 22.05 (compat 011, 012, 038). */
class TestStepGeometry {
    /** A batch job of -N2 -n2. */
    private static final Map<String, String> JOB =
            Map.of("SLURM_JOB_NUM_NODES", "2", "SLURM_NNODES", "2", "SLURM_NTASKS", "2");

    @Test
    void insideAnAllocationAStepSpansTheJobsNodesAndTakesItsTaskCount() {
        assertThat(StepGeometry.of(0, 0, 0, true, JOB)).isEqualTo(new StepGeometry(2, 2, Optional.empty()));
        // A job with no task count (sbatch -N2): one task per node.
        assertThat(StepGeometry.of(0, 0, 0, true, Map.of("SLURM_JOB_NUM_NODES", "2")))
                .isEqualTo(new StepGeometry(2, 2, Optional.empty()));
    }

    @Test
    void fewerTasksThanNodesLowerTheNodeCountWithSrunsWarning() {
        assertThat(StepGeometry.of(1, 0, 0, true, JOB))
                .isEqualTo(new StepGeometry(
                        1, 1, Optional.of("Warning: can't run 1 processes on 2 nodes, setting nnodes to 1")));
        // -N3 with the job's SLURM_NTASKS=2.
        assertThat(StepGeometry.of(0, 3, 0, true, JOB))
                .isEqualTo(new StepGeometry(
                        2, 2, Optional.of("Warning: can't run 2 processes on 3 nodes, setting nnodes to 2")));
    }

    @Test
    void minusNSetsTheNodeCount() {
        assertThat(StepGeometry.of(1, 1, 0, true, JOB)).isEqualTo(new StepGeometry(1, 1, Optional.empty()));
    }

    @Test
    void tasksPerNodeMultipliesTheNodesAndANewAllocationLeavesTheNodesOpen() {
        assertThat(StepGeometry.of(0, 1, 3, true, JOB)).isEqualTo(new StepGeometry(3, 1, Optional.empty()));
        assertThat(StepGeometry.of(4, 0, 0, false, Map.of())).isEqualTo(new StepGeometry(4, 0, Optional.empty()));
        assertThat(StepGeometry.of(0, 0, 0, false, Map.of())).isEqualTo(new StepGeometry(1, 0, Optional.empty()));
        assertThat(StepGeometry.of(1, 2, 0, false, Map.of()).nodes()).isEqualTo(1);
    }
}
