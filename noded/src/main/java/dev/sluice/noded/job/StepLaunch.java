package dev.sluice.noded.job;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * This node's tasks of a step, as the controller's launch says them, parsed once where it enters
 * the daemon ({@code wire.StepLaunchMapper}).
 *
 * @param argv the command, never empty in a step that runs
 * @param environment srun's environment (it carries the job's {@code SLURM_*})
 * @param workDir empty: /tmp
 * @param credential the controller's signature over the launch, checked before it was mapped
 */
public record StepLaunch(
        int jobId,
        int stepId,
        BatchJob.Owner owner,
        List<String> argv,
        Map<String, String> environment,
        Optional<String> workDir,
        Tasks tasks,
        OnNode onNode,
        Srun srun,
        String credential) {
    public StepLaunch {
        requireNonNull(owner, "owner is null");
        argv = List.copyOf(argv);
        environment = Collections.unmodifiableMap(new LinkedHashMap<>(environment));
        requireNonNull(workDir, "workDir is null");
        requireNonNull(tasks, "tasks is null");
        requireNonNull(onNode, "onNode is null");
        requireNonNull(srun, "srun is null");
        requireNonNull(credential, "credential is null");
    }

    /** Where the tasks run: their working directory, else /tmp. */
    public String runDir() {
        return workDir.orElse("/tmp");
    }

    /**
     * The step's tasks and this node's among them.
     *
     * @param taskIds the global task ids (SLURM_PROCID) run here, in order (SLURM_LOCALID = position)
     * @param tasksPerNode as Slurm writes it, {@code 2(x3)}
     */
    public record Tasks(
            List<Integer> taskIds, int nodeId, int numNodes, int numTasks, String nodeList, String tasksPerNode) {
        public Tasks {
            taskIds = List.copyOf(taskIds);
            requireNonNull(nodeList, "nodeList is null");
            requireNonNull(tasksPerNode, "tasksPerNode is null");
        }
    }

    /**
     * What the step holds on this node.
     *
     * @param cores the job's cores here to bind to; empty: not bound
     * @param memoryMb the job's memory here (0: none asked), for a job cgroup the step makes
     * @param gpusPerTask {@code --gpus-per-task}: the step's GPUs dealt out, that many each; 0: all
     */
    public record OnNode(
            int cpus,
            List<Integer> cores,
            long memoryMb,
            List<GresGrant> gres,
            Map<Integer, Long> mpsPerGpu,
            int gpusPerTask) {
        public OnNode {
            cores = List.copyOf(cores);
            gres = List.copyOf(gres);
            mpsPerGpu = Collections.unmodifiableMap(new TreeMap<>(mpsPerGpu));
        }
    }

    /** The srun the tasks talk to: its I/O socket, who reads its input, and its terminal for --pty. */
    public record Srun(String ioHost, int ioPort, Stdin stdin, Optional<Pty> pty) {
        public Srun {
            requireNonNull(ioHost, "ioHost is null");
            requireNonNull(stdin, "stdin is null");
            requireNonNull(pty, "pty is null");
        }
    }

    /** Which tasks read srun's standard input; the others read /dev/null. */
    public record Stdin(Mode mode, int task) {
        public static final Stdin NONE = new Stdin(Mode.NONE, 0);

        public enum Mode {
            NONE,
            ALL,
            /** Only {@code task} (its id in the step). */
            TASK
        }

        public Stdin {
            requireNonNull(mode, "mode is null");
        }

        public boolean reads(int taskId) {
            return mode == Mode.ALL || (mode == Mode.TASK && taskId == task);
        }
    }

    /** srun's terminal size; 0 rows or columns: unknown. */
    public record Pty(int rows, int cols) {}
}
