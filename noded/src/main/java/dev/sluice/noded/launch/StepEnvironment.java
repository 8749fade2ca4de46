package dev.sluice.noded.launch;

import dev.sluice.noded.job.GresGrant;
import dev.sluice.noded.job.StepLaunch;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The environment of one task of a step, as slurmstepd builds it: srun's environment (which
 * carries the job's {@code SLURM_*} from the batch script), then the step's and the task's
 * variables, then the step's devices, which win over the job's.
 */
public final class StepEnvironment {
    private StepEnvironment() {}

    public static Map<String, String> build(StepLaunch r, int localId, String nodeName) {
        Map<String, String> env = new LinkedHashMap<>(r.environment());
        // The job's device variables describe the job, not this step.
        for (String stale : List.of(
                "CUDA_VISIBLE_DEVICES",
                "GPU_DEVICE_ORDINAL",
                "ROCR_VISIBLE_DEVICES",
                "ZE_AFFINITY_MASK",
                "SLURM_GPUS_ON_NODE",
                "CUDA_MPS_ACTIVE_THREAD_PERCENTAGE",
                "SLURM_STEP_GPUS",
                "SLURM_SHARDS_ON_NODE")) {
            env.remove(stale);
        }
        String step = Integer.toString(r.stepId());
        StepLaunch.Tasks t = r.tasks();
        env.put("SLURM_JOB_ID", Integer.toString(r.jobId()));
        env.put("SLURM_JOBID", Integer.toString(r.jobId()));
        env.put("SLURM_STEP_ID", step);
        env.put("SLURM_STEPID", step);
        env.put("SLURM_STEP_NODELIST", t.nodeList());
        env.put("SLURM_STEP_NUM_NODES", Integer.toString(t.numNodes()));
        env.put("SLURM_STEP_NUM_TASKS", Integer.toString(t.numTasks()));
        env.put("SLURM_STEP_TASKS_PER_NODE", t.tasksPerNode());
        env.put("SLURM_NTASKS", Integer.toString(t.numTasks()));
        env.put("SLURM_NPROCS", Integer.toString(t.numTasks()));
        env.put("SLURM_NODEID", Integer.toString(t.nodeId()));
        env.put("SLURM_PROCID", Integer.toString(t.taskIds().get(localId)));
        env.put("SLURM_LOCALID", Integer.toString(localId));
        env.put("SLURM_CPUS_ON_NODE", Integer.toString(r.onNode().cpus()));
        env.put("SLURMD_NODENAME", nodeName);
        env.put("SLURM_TOPOLOGY_ADDR", nodeName);
        PtyTask.environment(r, env);
        List<String> gtids = new ArrayList<>();
        t.taskIds().forEach(id -> gtids.add(Integer.toString(id)));
        env.put("SLURM_GTIDS", String.join(",", gtids));
        Map<Integer, Long> mps = r.onNode().mpsPerGpu();
        List<GresGrant> gres = r.onNode().gres();
        Map<String, String> devices =
                GresEnvironment.build(taskGres(gres, r.onNode().gpusPerTask(), localId), mps);
        env.putAll(devices);
        if (r.onNode().gpusPerTask() > 0) {
            // The node's count is the step's, though the task sees only its own GPUs.
            String onNode = GresEnvironment.build(gres, mps).get("SLURM_GPUS_ON_NODE");
            if (onNode != null) {
                env.put("SLURM_GPUS_ON_NODE", onNode);
            }
        }
        env.remove("SLURM_JOB_GPUS");
        for (GresGrant g : gres) {
            if (g.name().equals("gpu") || g.name().equals("shard")) {
                env.put("SLURM_STEP_GPUS", devices.getOrDefault("CUDA_VISIBLE_DEVICES", ""));
            }
        }
        if (r.environment().containsKey("SLURM_JOB_GPUS")) {
            env.put("SLURM_JOB_GPUS", r.environment().get("SLURM_JOB_GPUS"));
        }
        return env;
    }

    /**
     * {@code --gpus-per-task}: the step's GPUs here dealt out in order, that many to each task
     * (local id 0 the first ones), as Slurm's implied {@code --gpu-bind=per_task}; otherwise
     * every task sees the step's GRES on the node.
     */
    static List<GresGrant> taskGres(List<GresGrant> gres, int each, int localId) {
        if (each <= 0) {
            return gres;
        }
        List<GresGrant> out = new ArrayList<>();
        for (GresGrant g : gres) {
            if (!g.name().equals("gpu")) {
                out.add(g);
                continue;
            }
            int from = Math.min(g.indices().size(), localId * each);
            int to = Math.min(g.indices().size(), from + each);
            out.add(g.withIndices(g.indices().subList(from, to)));
        }
        return out;
    }
}
