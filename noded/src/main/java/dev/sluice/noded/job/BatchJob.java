package dev.sluice.noded.job;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.slurm.OpenMode;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A batch job as this node runs it: what the controller's launch says, parsed once where it
 * enters the daemon ({@code wire.BatchJobMapper}), so that the launcher reads values, not wire
 * fields (an empty path is an absent one, the open mode and time limit are parsed, the
 * environment is a map of text).
 *
 * @param credential the controller's signature over the launch, checked before it was mapped;
 *     kept so that the spooled launch carries it as it came
 */
public record BatchJob(
        Identity identity,
        Owner owner,
        Submission submission,
        Io io,
        Layout layout,
        OnNode onNode,
        GpuRequest gpuRequest,
        Charge charge,
        Times times,
        Controller controller,
        String credential) {
    public BatchJob {
        requireNonNull(identity, "identity is null");
        requireNonNull(owner, "owner is null");
        requireNonNull(submission, "submission is null");
        requireNonNull(io, "io is null");
        requireNonNull(layout, "layout is null");
        requireNonNull(onNode, "onNode is null");
        requireNonNull(gpuRequest, "gpuRequest is null");
        requireNonNull(charge, "charge is null");
        requireNonNull(times, "times is null");
        requireNonNull(controller, "controller is null");
        requireNonNull(credential, "credential is null");
    }

    public int jobId() {
        return identity.jobId();
    }

    public int restartCount() {
        return identity.restartCount();
    }

    /**
     * Which job and which run of it.
     *
     * @param restartCount how often it was requeued before this run
     * @param name empty when the job has none (a script read from standard input without -J)
     * @param array the task of a job array this job is; empty for a plain job
     */
    public record Identity(int jobId, int restartCount, String name, Optional<ArrayTask> array) {
        public Identity {
            requireNonNull(name, "name is null");
            requireNonNull(array, "array is null");
        }
    }

    /** A task of a job array (SLURM_ARRAY_*; %A and %a in file names). */
    public record ArrayTask(int arrayJobId, int taskId, int count, int min, int max, int step) {}

    /** The submitting user, whose identity the script runs with. */
    public record Owner(int uid, int gid, String userName) {
        public Owner {
            requireNonNull(userName, "userName is null");
        }
    }

    /**
     * What was submitted: the script and its arguments, the exported environment (values as
     * {@code common.text.RawText}: bytes that are not UTF-8 stay escapes until the job's
     * environment file), and the host sbatch ran on.
     */
    public record Submission(Script script, Map<String, String> environment, String submitHost) {
        public Submission {
            requireNonNull(script, "script is null");
            requireNonNull(submitHost, "submitHost is null");
            // Insertion order kept: it is the order the job's environment file lists them in.
            environment = Collections.unmodifiableMap(new LinkedHashMap<>(environment));
        }
    }

    /** The batch script, byte for byte as submitted (a Latin-1 comment stays Latin-1), and its arguments. */
    public record Script(byte[] bytes, List<String> args) {
        public Script {
            bytes = bytes.clone();
            args = List.copyOf(args);
        }

        @Override
        public byte[] bytes() {
            return bytes.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Script s && Arrays.equals(bytes, s.bytes) && args.equals(s.args);
        }

        @Override
        public int hashCode() {
            return 31 * Arrays.hashCode(bytes) + args.hashCode();
        }

        @Override
        public String toString() {
            return "Script[" + bytes.length + " bytes, args=" + args + "]";
        }
    }

    /**
     * The working directory and the standard files, as {@code -D}, {@code -i}, {@code -o},
     * {@code -e} name them (patterns such as {@code %j} unexpanded); empty when not given.
     */
    public record Io(
            Optional<String> workDir,
            Optional<String> stdIn,
            Optional<String> stdOut,
            Optional<String> stdErr,
            OpenMode openMode) {
        public Io {
            requireNonNull(workDir, "workDir is null");
            requireNonNull(stdIn, "stdIn is null");
            requireNonNull(stdOut, "stdOut is null");
            requireNonNull(stdErr, "stdErr is null");
            requireNonNull(openMode, "openMode is null");
        }

        /** Where the job runs and relative file names are taken: its working directory, else /tmp. */
        public String runDir() {
            return workDir.orElse("/tmp");
        }

        /** {@code --open-mode=append}: the files are not truncated first. */
        public boolean append() {
            return openMode == OpenMode.APPEND;
        }
    }

    /**
     * The whole job's shape, in Slurm's words.
     *
     * @param numTasks the job's task count when it asked for one ({@code -n},
     *     {@code --ntasks-per-node}); 0 when it did not
     * @param jobCpusPerNode as Slurm writes it, {@code 4(x2)}
     * @param tasksPerNode likewise
     */
    public record Layout(
            String clusterName,
            String nodeList,
            int numNodes,
            int numTasks,
            String jobCpusPerNode,
            String tasksPerNode) {
        public Layout {
            requireNonNull(clusterName, "clusterName is null");
            requireNonNull(nodeList, "nodeList is null");
            requireNonNull(jobCpusPerNode, "jobCpusPerNode is null");
            requireNonNull(tasksPerNode, "tasksPerNode is null");
        }
    }

    /**
     * What the job holds on this node.
     *
     * @param cpusPerTask 0 when not asked for
     * @param cores the cores (Slurm's numbering) to bind the job to; empty: not bound
     * @param memory the memory asked for
     * @param mpsPerGpu per GPU index: its MPS count (CUDA_MPS_ACTIVE_THREAD_PERCENTAGE)
     */
    public record OnNode(
            int cpus,
            int cpusPerTask,
            List<Integer> cores,
            Memory memory,
            List<GresGrant> gres,
            Map<Integer, Long> mpsPerGpu) {
        public OnNode {
            cores = List.copyOf(cores);
            requireNonNull(memory, "memory is null");
            gres = List.copyOf(gres);
            mpsPerGpu = Collections.unmodifiableMap(new TreeMap<>(mpsPerGpu));
        }

        /** The node's GPU indices it holds, whole or as MPS/shard share, in order, each once. */
        public List<Integer> gpus() {
            java.util.TreeSet<Integer> gpus = new java.util.TreeSet<>();
            gres.stream().filter(GresGrant::onGpus).forEach(g -> gpus.addAll(g.indices()));
            return List.copyOf(gpus);
        }
    }

    /** The memory asked for, per node (this node's) and per CPU; 0 when not asked for. */
    public record Memory(long perNodeMb, long perCpuMb) {}

    /** {@code --gpus}, {@code --gpus-per-node}, {@code --gpus-per-task} as typed, which sbatch exports. */
    public record GpuRequest(Optional<String> gpus, Optional<String> perNode, Optional<String> perTask) {
        public static final GpuRequest NONE = new GpuRequest(Optional.empty(), Optional.empty(), Optional.empty());

        public GpuRequest {
            requireNonNull(gpus, "gpus is null");
            requireNonNull(perNode, "perNode is null");
            requireNonNull(perTask, "perTask is null");
        }
    }

    /**
     * What the job runs in and is charged to.
     *
     * @param account empty when none
     * @param qos empty when none
     * @param constraint {@code --constraint} as typed, which Prolog and Epilog see; empty when none
     */
    public record Charge(String partition, String account, String qos, String constraint) {
        public Charge {
            requireNonNull(partition, "partition is null");
            requireNonNull(account, "account is null");
            requireNonNull(qos, "qos is null");
            requireNonNull(constraint, "constraint is null");
        }
    }

    /**
     * When it started and how long it may run.
     *
     * @param timeLimit empty: no limit (UNLIMITED, or none given)
     * @param killWait how long after SIGTERM the job gets SIGKILL ({@code KillWait})
     */
    public record Times(Instant start, Optional<Duration> timeLimit, Duration killWait) {
        public Times {
            requireNonNull(start, "start is null");
            requireNonNull(timeLimit, "timeLimit is null");
            requireNonNull(killWait, "killWait is null");
        }
    }

    /** The controller that launched the job. */
    public record Controller(String host, int port) {
        public Controller {
            requireNonNull(host, "host is null");
        }
    }
}
