package dev.sluice.noded.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.noded.job.GresGrant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Device variables as real Slurm 22.05 sets them (compat/scenarios record the same on real Slurm). */
class TestGresEnvironment {
    @Test
    void gpusAreNamedByTheirIndices() {
        Map<String, String> env = GresEnvironment.build(List.of(new GresGrant("gpu", "", List.of(1, 2), 2)), Map.of());
        assertThat(env)
                .containsEntry("CUDA_VISIBLE_DEVICES", "1,2")
                .containsEntry("GPU_DEVICE_ORDINAL", "1,2")
                .containsEntry("ROCR_VISIBLE_DEVICES", "1,2")
                .containsEntry("ZE_AFFINITY_MASK", "1,2")
                .containsEntry("SLURM_JOB_GPUS", "1,2")
                .containsEntry("SLURM_GPUS_ON_NODE", "2")
                .doesNotContainKey("CUDA_DEVICE_ORDER");
    }

    @Test
    void mpsShareIsAPercentageOfItsGpu() {
        Map<String, String> env =
                GresEnvironment.build(List.of(new GresGrant("mps", "", List.of(0), 50)), Map.of(0, 100L));
        // An MPS job is told its share, not its device.
        assertThat(env).containsExactlyEntriesOf(Map.of("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE", "50"));
        Map<String, String> of400 =
                GresEnvironment.build(List.of(new GresGrant("mps", "", List.of(1), 100)), Map.of(1, 400L));
        assertThat(of400).containsEntry("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE", "25");
    }

    @Test
    void shardsCountOnTheirGpu() {
        Map<String, String> env = GresEnvironment.build(List.of(new GresGrant("shard", "", List.of(2), 3)), Map.of());
        assertThat(env)
                .containsEntry("CUDA_VISIBLE_DEVICES", "2")
                .containsEntry("ZE_AFFINITY_MASK", "2")
                .containsEntry("SLURM_JOB_GPUS", "2")
                .containsEntry("SLURM_GPUS_ON_NODE", "1")
                .containsEntry("SLURM_SHARDS_ON_NODE", "3");
    }

    @Test
    void noGresNoDeviceVariables() {
        assertThat(GresEnvironment.build(List.of(), Map.of())).isEmpty();
    }
}
