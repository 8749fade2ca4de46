package dev.sluice.cli.command.srun;

import java.util.Map;
import java.util.Optional;

/**
 * How many tasks and nodes srun asks for, as Slurm 22.05's srun settles them before it asks.
 * Pure.
 *
 * <ul>
 *   <li>tasks: {@code -n}; else {@code --ntasks-per-node} times the nodes; else, inside an
 *       allocation, the job's {@code SLURM_NTASKS} (srun reads it as {@code -n}); else one per
 *       node;
 *   <li>nodes: {@code -N}; else, inside an allocation, all the job's nodes, even with {@code -w}
 *       ({@code srun -w n2 -n1} in a 2-node job draws the warning below); else (a new
 *       allocation) as few as the tasks need (0);
 *   <li>a task count (given or read) below the node count lowers the node count to it, with
 *       srun's {@code Warning: can't run 1 processes on 2 nodes, setting nnodes to 1}.
 * </ul>
 */
record StepGeometry(int tasks, int nodes, Optional<String> warning) {

    /**
     * @param tasks {@code -n}, 0 when not given
     * @param nodes {@code -N}, 0 when not given
     * @param tasksPerNode {@code --ntasks-per-node}, 0 when not given
     * @param env srun's environment: the job's variables inside an allocation
     */
    static StepGeometry of(int tasks, int nodes, int tasksPerNode, boolean inAllocation, Map<String, String> env) {
        int n = nodes > 0
                ? nodes
                : inAllocation ? intEnv(env, "SLURM_JOB_NUM_NODES", intEnv(env, "SLURM_NNODES", 0)) : 0;
        int t;
        boolean tasksSet = true;
        if (tasks > 0) {
            t = tasks;
        } else if (tasksPerNode > 0) {
            t = tasksPerNode * Math.max(1, n);
            tasksSet = false;
        } else if (inAllocation && intEnv(env, "SLURM_NTASKS", 0) > 0) {
            t = intEnv(env, "SLURM_NTASKS", 0);
        } else {
            t = Math.max(1, n);
            tasksSet = false;
        }
        if (tasksSet && n > t) {
            String warning = "Warning: can't run " + t + " processes on " + n + " nodes, setting nnodes to " + t;
            return new StepGeometry(t, t, Optional.of(warning));
        }
        return new StepGeometry(t, n, Optional.empty());
    }

    private static int intEnv(Map<String, String> env, String name, int fallback) {
        try {
            return Integer.parseInt(
                    env.getOrDefault(name, Integer.toString(fallback)).strip());
        } catch (NumberFormatException e) {
            return fallback;
        }
    }
}
