package dev.sluice.noded.launch;

import dev.sluice.noded.job.GresGrant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The variables that tell a job which devices are its own, as Slurm 22.05's gres/gpu, gres/mps
 * and gres/shard plugins set them (recorded from real Slurm): a GPU or a shard of one gives
 * {@code CUDA_VISIBLE_DEVICES}, {@code GPU_DEVICE_ORDINAL}, {@code ROCR_VISIBLE_DEVICES},
 * {@code ZE_AFFINITY_MASK}, {@code SLURM_JOB_GPUS} and {@code SLURM_GPUS_ON_NODE}, a shard also
 * {@code SLURM_SHARDS_ON_NODE}; an MPS share gives only
 * {@code CUDA_MPS_ACTIVE_THREAD_PERCENTAGE} (the share × 100 / the first GPU's MPS count, above
 * 100 for a share larger than one GPU's, as Slurm computes it). Slurm sets
 * no {@code CUDA_DEVICE_ORDER}. Indices are the node's device numbers (no device cgroup
 * renumbers them).
 */
public final class GresEnvironment {
    private GresEnvironment() {}

    public static Map<String, String> build(List<GresGrant> grants, Map<Integer, Long> mpsPerGpu) {
        Map<String, String> env = new LinkedHashMap<>();
        for (GresGrant g : grants) {
            String indices = join(g.indices());
            switch (g.name()) {
                case "gpu" -> devices(env, g, indices);
                case "mps" -> {
                    int gpu = g.indices().isEmpty() ? 0 : g.indices().get(0);
                    long perGpu = mpsPerGpu.getOrDefault(gpu, 100L);
                    long percent = perGpu > 0 ? g.count() * 100 / perGpu : 100;
                    // Slurm's formula, not capped: mps:150 on 100 a GPU gives 150.
                    env.put("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE", Long.toString(Math.max(1, percent)));
                }
                case "shard" -> {
                    devices(env, g, indices);
                    env.put("SLURM_SHARDS_ON_NODE", Long.toString(g.count()));
                }
                default -> {}
            }
        }
        return env;
    }

    private static void devices(Map<String, String> env, GresGrant g, String indices) {
        env.put("CUDA_VISIBLE_DEVICES", indices);
        env.put("GPU_DEVICE_ORDINAL", indices);
        env.put("ROCR_VISIBLE_DEVICES", indices);
        env.put("ZE_AFFINITY_MASK", indices);
        env.put("SLURM_JOB_GPUS", indices);
        env.put("SLURM_GPUS_ON_NODE", Integer.toString(g.indices().size()));
    }

    private static String join(List<Integer> indices) {
        List<String> s = new ArrayList<>();
        indices.forEach(i -> s.add(Integer.toString(i)));
        return String.join(",", s);
    }
}
