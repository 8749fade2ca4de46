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

    /**
     * Everything the controller told the node about the job, in Slurm's terms.
     *
     * @param nodeName the node the script runs on
     */
    public record JobFacts(
            int jobId,
            String clusterName,
            String nodeName,
            Layout layout,
            Memory memory,
            Charge charge,
            Submission submission) {}

    /**
     * Where the job's tasks and CPUs are.
     *
     * @param numTasks the job's task count, 0 when it asked for none
     * @param cpusPerTask 0 when not asked for
     * @param jobCpusPerNode as Slurm writes it, {@code 4(x2)}
     * @param tasksPerNode likewise
     */
    public record Layout(
            String nodeList,
            int numNodes,
            int numTasks,
            int cpusOnNode,
            int cpusPerTask,
            String jobCpusPerNode,
            String tasksPerNode) {}

    /** The memory asked for: per CPU, else per node; 0 when not asked for. */
    public record Memory(long perNodeMb, long perCpuMb) {}

    /** What the job runs in and is charged to. */
    public record Charge(String partition, String account, String qos) {}

    /** Who submitted it, from where. */
    public record Submission(String submitDir, String submitHost, int uid, int gid, String user) {}

    public static Map<String, String> build(Map<String, String> exported, JobFacts f) {
        Layout l = f.layout();
        Submission who = f.submission();
        Map<String, String> env = new LinkedHashMap<>(exported);
        env.put("ENVIRONMENT", "BATCH");
        put(env, "SLURM_CLUSTER_NAME", f.clusterName());
        put(env, "SLURM_JOB_ID", Integer.toString(f.jobId()));
        put(env, "SLURM_JOBID", Integer.toString(f.jobId()));
        put(env, "SLURM_JOB_NODELIST", l.nodeList());
        put(env, "SLURM_NODELIST", l.nodeList());
        put(env, "SLURM_JOB_NUM_NODES", Integer.toString(l.numNodes()));
        put(env, "SLURM_NNODES", Integer.toString(l.numNodes()));
        // Only a job that asked for a task count (-n, --ntasks-per-node) is told one, as in Slurm.
        if (l.numTasks() > 0) {
            put(env, "SLURM_NTASKS", Integer.toString(l.numTasks()));
            put(env, "SLURM_NPROCS", Integer.toString(l.numTasks()));
        }
        put(env, "SLURM_CPUS_ON_NODE", Integer.toString(l.cpusOnNode()));
        if (l.cpusPerTask() > 0) {
            put(env, "SLURM_CPUS_PER_TASK", Integer.toString(l.cpusPerTask()));
        }
        put(env, "SLURM_JOB_CPUS_PER_NODE", l.jobCpusPerNode());
        put(env, "SLURM_TASKS_PER_NODE", l.tasksPerNode());
        if (f.memory().perCpuMb() > 0) {
            put(env, "SLURM_MEM_PER_CPU", Long.toString(f.memory().perCpuMb()));
        } else if (f.memory().perNodeMb() > 0) {
            put(env, "SLURM_MEM_PER_NODE", Long.toString(f.memory().perNodeMb()));
        }
        put(env, "SLURM_JOB_PARTITION", f.charge().partition());
        put(env, "SLURM_JOB_ACCOUNT", f.charge().account());
        put(env, "SLURM_JOB_QOS", f.charge().qos());
        // sbatch sets it to where it ran, which --chdir does not change; the working directory
        // stands for it when a client did not.
        if (!exported.containsKey("SLURM_SUBMIT_DIR")) {
            put(env, "SLURM_SUBMIT_DIR", who.submitDir());
        }
        put(env, "SLURM_SUBMIT_HOST", who.submitHost());
        put(env, "SLURMD_NODENAME", f.nodeName());
        put(env, "SLURM_TOPOLOGY_ADDR", f.nodeName());
        // Slurm's values on a cluster without a topology plugin or cloud nodes.
        put(env, "SLURM_TOPOLOGY_ADDR_PATTERN", "node");
        put(env, "SLURM_NODE_ALIASES", "(null)");
        put(env, "SLURM_NODEID", "0");
        put(env, "SLURM_PROCID", "0");
        put(env, "SLURM_LOCALID", "0");
        put(env, "SLURM_GTIDS", "0");
        put(env, "SLURM_JOB_UID", Integer.toString(who.uid()));
        put(env, "SLURM_JOB_GID", Integer.toString(who.gid()));
        put(env, "SLURM_JOB_USER", who.user());
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
