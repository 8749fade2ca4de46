package dev.sluice.noded.launch;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The environment of a batch script, as slurmd builds it: the submitter's exported variables
 * (unless {@code --export=NONE}), then Slurm's {@code SLURM_*} variables, which win. The job's
 * name is not among them: sbatch exports {@code SLURM_JOB_NAME}, and a script read from standard
 * input without {@code -J} runs without it, as in Slurm 22.05.
 */
public final class BatchEnvironment {
    private BatchEnvironment() {}

    /** Everything the controller told the node about the job, in Slurm's terms. */
    public record JobFacts(
            int jobId,
            String nodeList,
            int numNodes,
            int numTasks,
            int cpusOnNode,
            int cpusPerTask,
            String jobCpusPerNode,
            String tasksPerNode,
            long memPerNodeMb,
            long memPerCpuMb,
            String partition,
            String account,
            String qos,
            String submitDir,
            String submitHost,
            String clusterName,
            String nodeName,
            int uid,
            int gid,
            String user) {}

    public static Map<String, String> build(Map<String, String> exported, JobFacts f) {
        Map<String, String> env = new LinkedHashMap<>(exported);
        env.put("ENVIRONMENT", "BATCH");
        put(env, "SLURM_CLUSTER_NAME", f.clusterName());
        put(env, "SLURM_JOB_ID", Integer.toString(f.jobId()));
        put(env, "SLURM_JOBID", Integer.toString(f.jobId()));
        put(env, "SLURM_JOB_NODELIST", f.nodeList());
        put(env, "SLURM_NODELIST", f.nodeList());
        put(env, "SLURM_JOB_NUM_NODES", Integer.toString(f.numNodes()));
        put(env, "SLURM_NNODES", Integer.toString(f.numNodes()));
        // Only a job that asked for a task count (-n, --ntasks-per-node) is told one, as in Slurm.
        if (f.numTasks() > 0) {
            put(env, "SLURM_NTASKS", Integer.toString(f.numTasks()));
            put(env, "SLURM_NPROCS", Integer.toString(f.numTasks()));
        }
        put(env, "SLURM_CPUS_ON_NODE", Integer.toString(f.cpusOnNode()));
        if (f.cpusPerTask() > 0) {
            put(env, "SLURM_CPUS_PER_TASK", Integer.toString(f.cpusPerTask()));
        }
        put(env, "SLURM_JOB_CPUS_PER_NODE", f.jobCpusPerNode());
        put(env, "SLURM_TASKS_PER_NODE", f.tasksPerNode());
        if (f.memPerCpuMb() > 0) {
            put(env, "SLURM_MEM_PER_CPU", Long.toString(f.memPerCpuMb()));
        } else if (f.memPerNodeMb() > 0) {
            put(env, "SLURM_MEM_PER_NODE", Long.toString(f.memPerNodeMb()));
        }
        put(env, "SLURM_JOB_PARTITION", f.partition());
        put(env, "SLURM_JOB_ACCOUNT", f.account());
        put(env, "SLURM_JOB_QOS", f.qos());
        // sbatch sets it to where it ran, which --chdir does not change; the working directory
        // stands for it when a client did not.
        if (!exported.containsKey("SLURM_SUBMIT_DIR")) {
            put(env, "SLURM_SUBMIT_DIR", f.submitDir());
        }
        put(env, "SLURM_SUBMIT_HOST", f.submitHost());
        put(env, "SLURMD_NODENAME", f.nodeName());
        put(env, "SLURM_TOPOLOGY_ADDR", f.nodeName());
        // Slurm's values on a cluster without a topology plugin or cloud nodes.
        put(env, "SLURM_TOPOLOGY_ADDR_PATTERN", "node");
        put(env, "SLURM_NODE_ALIASES", "(null)");
        put(env, "SLURM_NODEID", "0");
        put(env, "SLURM_PROCID", "0");
        put(env, "SLURM_LOCALID", "0");
        put(env, "SLURM_GTIDS", "0");
        put(env, "SLURM_JOB_UID", Integer.toString(f.uid()));
        put(env, "SLURM_JOB_GID", Integer.toString(f.gid()));
        put(env, "SLURM_JOB_USER", f.user());
        return env;
    }

    /** SLURM_ARRAY_* for a task of a job array; empty for a plain job. */
    public static Map<String, String> array(int arrayJobId, int taskId, int count, int min, int max, int step) {
        Map<String, String> env = new LinkedHashMap<>();
        if (arrayJobId == 0) {
            return env;
        }
        env.put("SLURM_ARRAY_JOB_ID", Integer.toUnsignedString(arrayJobId));
        env.put("SLURM_ARRAY_TASK_ID", Integer.toString(taskId));
        env.put("SLURM_ARRAY_TASK_COUNT", Integer.toString(count));
        env.put("SLURM_ARRAY_TASK_MIN", Integer.toString(min));
        env.put("SLURM_ARRAY_TASK_MAX", Integer.toString(max));
        env.put("SLURM_ARRAY_TASK_STEP", Integer.toString(step));
        return env;
    }

    private static void put(Map<String, String> env, String key, String value) {
        if (value != null && !value.isEmpty()) {
            env.put(key, value);
        }
    }
}
