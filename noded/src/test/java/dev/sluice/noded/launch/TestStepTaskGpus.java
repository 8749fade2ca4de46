package dev.sluice.noded.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.noded.job.GresGrant;
import dev.sluice.noded.job.StepLaunch;
import dev.sluice.noded.job.StepLaunchBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** --gpus-per-task: each task sees its own GPUs, as real Slurm 22.05 (compat 014). */
class TestStepTaskGpus {
    private static StepLaunch step(int gpusPerTask) {
        return StepLaunchBuilder.step(7, 0)
                .taskIds(0, 1)
                .gpusPerTask(gpusPerTask)
                .gres(new GresGrant("gpu", "", List.of(0, 1), 2))
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
