package dev.sluice.noded.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.protocol.v1.GresGrant;
import dev.sluice.protocol.v1.LaunchStepRequest;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** --gpus-per-task: each task sees its own GPUs, as real Slurm 22.05 (compat 014). */
class TestStepTaskGpus {
    private static LaunchStepRequest step(int gpusPerTask) {
        return LaunchStepRequest.newBuilder()
                .setJobId(7)
                .addTaskIds(0)
                .addTaskIds(1)
                .setGpusPerTask(gpusPerTask)
                .addGres(GresGrant.newBuilder()
                        .setName("gpu")
                        .addIndices(0)
                        .addIndices(1)
                        .setCount(2))
                .build();
    }

    @Test
    void eachTaskIsBoundToItsShareOfTheStepsGpus() {
        Map<String, String> first = StepEnvironment.build(step(1), 0, "n1");
        Map<String, String> second = StepEnvironment.build(step(1), 1, "n1");
        assertThat(first).containsEntry("CUDA_VISIBLE_DEVICES", "0").containsEntry("SLURM_STEP_GPUS", "0");
        assertThat(second).containsEntry("CUDA_VISIBLE_DEVICES", "1").containsEntry("SLURM_STEP_GPUS", "1");
        assertThat(first).containsEntry("SLURM_GPUS_ON_NODE", "2");
        assertThat(second).containsEntry("SLURM_GPUS_ON_NODE", "2");
    }

    @Test
    void withoutGpusPerTaskEveryTaskSeesThemAll() {
        assertThat(StepEnvironment.build(step(0), 1, "n1"))
                .containsEntry("CUDA_VISIBLE_DEVICES", "0,1")
                .containsEntry("SLURM_GPUS_ON_NODE", "2");
    }
}
