package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.slurm.GresBinding;
import dev.sluice.common.slurm.Licenses;
import dev.sluice.common.slurm.MailType;
import dev.sluice.common.slurm.OpenMode;
import dev.sluice.common.slurm.SlurmLimits;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a user asked for, as the controller keeps it: the domain twin of the wire's
 * {@code JobSpec}. Zero or empty means "not given" so that partition and configuration
 * defaults apply when the job is scheduled, as in Slurm. The loose options are grouped
 * ({@link JobDescription}, {@link JobScheduling}, {@link JobAccounting}); their accessors
 * ({@link #name()}, {@link #partition()}, {@link #account()}, ...) read through to the groups.
 */
public record JobRequest(
        JobDescription description,
        Owner owner,
        Launch launch,
        Io io,
        Size size,
        Memory memory,
        Placement placement,
        GresRequests gres,
        GpuOptions gpuOptions,
        Sequencing sequencing,
        JobScheduling scheduling,
        JobAccounting accounting) {

    /** Time limit value meaning "not given"; Slurm's NO_VAL. */
    public static final long TIME_NOT_SET = SlurmLimits.NO_VAL;
    /** Time limit value meaning UNLIMITED; Slurm's INFINITE. */
    public static final long TIME_INFINITE = SlurmLimits.INFINITE;

    public JobRequest {
        requireNonNull(description, "description is null");
        requireNonNull(launch, "launch is null");
        requireNonNull(owner, "owner is null");
        requireNonNull(placement, "placement is null");
        requireNonNull(gres, "gres is null");
        requireNonNull(io, "io is null");
        requireNonNull(size, "size is null");
        requireNonNull(memory, "memory is null");
        requireNonNull(gpuOptions, "gpuOptions is null");
        requireNonNull(sequencing, "sequencing is null");
        requireNonNull(scheduling, "scheduling is null");
        requireNonNull(accounting, "accounting is null");
    }

    public String name() {
        return description.name();
    }

    public String comment() {
        return description.comment();
    }

    public String submitHost() {
        return description.submitHost();
    }

    public Mail mail() {
        return description.mail();
    }

    public String partition() {
        return scheduling.partition();
    }

    public long timeLimitMinutes() {
        return scheduling.timeLimitMinutes();
    }

    public WarnSignal warnSignal() {
        return scheduling.warnSignal();
    }

    public boolean hold() {
        return scheduling.hold();
    }

    public boolean requeue() {
        return scheduling.requeue();
    }

    public int nice() {
        return scheduling.nice();
    }

    public String account() {
        return accounting.account();
    }

    public String qos() {
        return accounting.qos();
    }

    public String reservation() {
        return accounting.reservation();
    }

    public Licenses licenses() {
        return accounting.licenses();
    }

    public JobWckey wckey() {
        return accounting.wckey();
    }

    /** A builder with every field "not given" (empty, zero, NONE), for callers that set a few. */
    public static JobRequestBuilder builder(Owner owner) {
        return new JobRequestBuilder(owner);
    }

    /** A builder holding this request, for a copy that changes a few fields. */
    public JobRequestBuilder toBuilder() {
        return new JobRequestBuilder(this);
    }

    /**
     * What the job runs and where: the batch script and its arguments (empty for an allocation),
     * the working directory, the environment it starts with, and the command line of the
     * salloc/srun that asked for an allocation ({@code Command=} in scontrol).
     *
     * <p>{@code script} and the values of {@code environment} are byte strings held as {@code
     * dev.sluice.common.text.RawText} text: bytes that are not UTF-8 are kept as escapes, so they
     * reach the job as submitted.
     */
    public record Launch(
            String script, List<String> scriptArgs, String workDir, Map<String, String> environment, String command) {
        public static final Launch NONE = new Launch("", List.of(), "", Map.of(), "");

        public Launch {
            requireNonNull(script, "script is null");
            scriptArgs = List.copyOf(scriptArgs);
            requireNonNull(workDir, "workDir is null");
            environment = Map.copyOf(environment);
            requireNonNull(command, "command is null");
        }
    }

    /**
     * Which nodes the job may have: {@code -w} (all of them), {@code -x}, {@code --constraint},
     * {@code --exclusive} (whole nodes, shared with no other job) and {@code --oversubscribe}
     * (its cores may be shared where its partition lets jobs ask, {@code OverSubscribe=YES:n}).
     */
    public record Placement(
            NodeNames reqNodes,
            NodeNames excludeNodes,
            FeatureConstraint constraint,
            boolean exclusive,
            boolean oversubscribe) {
        public static final Placement NONE =
                new Placement(NodeNames.NONE, NodeNames.NONE, FeatureConstraint.NONE, false, false);

        public Placement {
            requireNonNull(reqNodes, "reqNodes is null");
            requireNonNull(excludeNodes, "excludeNodes is null");
            requireNonNull(constraint, "constraint is null");
        }
    }

    /**
     * How many nodes, tasks and CPUs per task the job asked for ({@code -N}, {@code -n},
     * {@code -c}, {@code --ntasks-per-node}); zero: not given.
     */
    public record Size(int minNodes, int maxNodes, int numTasks, int cpusPerTask, int ntasksPerNode) {
        public static final Size NONE = new Size(0, 0, 0, 0, 0);

        /** Tasks requested; Slurm defaults to one task per requested node. */
        public int effectiveTasks() {
            if (numTasks > 0) {
                return numTasks;
            }
            int nodes = effectiveMinNodes();
            return ntasksPerNode > 0 ? ntasksPerNode * nodes : nodes;
        }

        public int effectiveCpusPerTask() {
            return Math.max(1, cpusPerTask);
        }

        public int effectiveMinNodes() {
            return Math.max(1, minNodes);
        }
    }

    /** {@code --mem} and {@code --mem-per-cpu} in MB; zero: not given (the partition's default applies). */
    public record Memory(long perNodeMb, long perCpuMb) {
        public static final Memory NONE = new Memory(0, 0);
    }

    /**
     * Where the job's standard streams go ({@code -o}, {@code -e}, {@code -i}, as typed: the
     * patterns are expanded where the job runs) and how its files are opened
     * ({@code --open-mode}).
     */
    public record Io(String stdOut, String stdErr, String stdIn, OpenMode openMode) {
        public static final Io NONE = new Io("", "", "", OpenMode.NOT_GIVEN);

        public Io {
            requireNonNull(stdOut, "stdOut is null");
            requireNonNull(stdErr, "stdErr is null");
            requireNonNull(stdIn, "stdIn is null");
            requireNonNull(openMode, "openMode is null");
        }
    }

    /**
     * {@code --mail-type} (empty: none) and {@code --mail-user}: kept and shown; Sluice sends no
     * mail. The events are parsed when the job arrives; scontrol shows them in Slurm's order
     * ({@link #typesText()}), not as typed.
     */
    public record Mail(Set<MailType> types, String user) {
        public static final Mail NONE = new Mail(Set.of(), "");

        public Mail {
            requireNonNull(types, "types is null");
            types = types.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(types));
            requireNonNull(user, "user is null");
        }

        /**
         * The options as they travel: the events comma-separated, empty for none.
         *
         * @throws IllegalArgumentException for an event name that is not Slurm's
         */
        public static Mail parse(String types, String user) {
            return new Mail(types.isEmpty() ? Set.of() : MailType.parseList(types), user);
        }

        /** {@code MailType=} as scontrol shows it ({@code END,FAIL}), and as the journal keeps it. */
        public String typesText() {
            return MailType.text(types);
        }
    }

    /**
     * {@code --signal=[{R|B}:]<sig_num>[@sig_time]}.
     *
     * @param signal signal number, 0 for none
     * @param secondsBefore how long before the time limit it is sent
     * @param batchOnly {@code B:}: the batch shell only; otherwise every step but not the shell
     */
    public record WarnSignal(int signal, int secondsBefore, boolean batchOnly) {
        public static final WarnSignal NONE = new WarnSignal(0, 0, false);
    }

    /**
     * When the job may run relative to time and other jobs.
     *
     * @param array {@code --array}, parsed when the job arrived ({@link ArrayRequest#NONE}: a plain job)
     * @param dependency {@code --dependency}, parsed when the job arrived ({@link Dependency#NONE}: none)
     * @param beginTime {@code --begin} as epoch seconds, 0 for none
     * @param deadline {@code --deadline} as epoch seconds, 0 for none ({@link JobTimes#missesDeadline})
     */
    public record Sequencing(
            ArrayRequest array, Dependency dependency, boolean killOnInvalidDep, long beginTime, long deadline) {
        public static final Sequencing NONE = new Sequencing(ArrayRequest.NONE, Dependency.NONE, false, 0, 0);

        public Sequencing {
            requireNonNull(array, "array is null");
            requireNonNull(dependency, "dependency is null");
        }
    }

    /**
     * The GPU-centric options ({@code --gpus*}, {@code --cpus-per-gpu}, {@code --mem-per-gpu},
     * {@code --gres-flags}), parsed once; each count keeps its text as typed, which Slurm echoes.
     */
    public record GpuOptions(
            GpuCount gpus,
            GpuCount gpusPerNode,
            GpuCount gpusPerTask,
            int cpusPerGpu,
            long memPerGpuMb,
            GresBinding binding) {
        public static final GpuOptions NONE =
                new GpuOptions(GpuCount.NONE, GpuCount.NONE, GpuCount.NONE, 0, 0, GresBinding.NOT_GIVEN);

        public GpuOptions {
            requireNonNull(gpus, "gpus is null");
            requireNonNull(gpusPerNode, "gpusPerNode is null");
            requireNonNull(gpusPerTask, "gpusPerTask is null");
            requireNonNull(binding, "binding is null");
        }

        /**
         * The options as they travel ({@code gresFlags} empty: not given).
         *
         * @throws IllegalArgumentException when a count or the flags do not parse
         */
        public static GpuOptions parse(
                String gpus,
                String gpusPerNode,
                String gpusPerTask,
                int cpusPerGpu,
                long memPerGpuMb,
                String gresFlags) {
            return new GpuOptions(
                    GpuCount.parse(gpus),
                    GpuCount.parse(gpusPerNode),
                    GpuCount.parse(gpusPerTask),
                    cpusPerGpu,
                    memPerGpuMb,
                    GresBinding.fromWire(gresFlags));
        }

        /** {@code --gres-flags=enforce-binding}: GPUs only with the cores they are bound to. */
        public boolean enforceBinding() {
            return binding == GresBinding.ENFORCE;
        }
    }

    /** Submitting user as the controller recorded it. */
    public record Owner(int uid, int gid, String userName) {
        public Owner {
            requireNonNull(userName, "userName is null");
        }
    }

    /** The same request with the fields {@code scontrol update job} may change while pending. */
    public JobRequest withDescription(String newName, String newComment, int newNice) {
        return toBuilder().name(newName).comment(newComment).nice(newNice).build();
    }

    /**
     * The same request with the size and partition {@code scontrol update job} may change while
     * pending ({@code NumNodes}, {@code NumTasks}, {@code Partition}).
     */
    public JobRequest withShape(int newMinNodes, int newMaxNodes, int newNumTasks, String newPartition) {
        return toBuilder()
                .minNodes(newMinNodes)
                .maxNodes(newMaxNodes)
                .numTasks(newNumTasks)
                .partition(newPartition)
                .build();
    }

    /** The same request with {@code scontrol update job Licenses=} applied while pending. */
    public JobRequest withLicenses(Licenses newLicenses) {
        return toBuilder().licenses(newLicenses).build();
    }

    /** The same request under the account and QOS accounting resolved at submit. */
    public JobRequest withAccounting(String newAccount, String newQos) {
        return toBuilder().account(newAccount).qos(newQos).build();
    }

    /** The same request with the wckey the controller settled on at submit or update. */
    public JobRequest withWckey(JobWckey newWckey) {
        return toBuilder().wckey(newWckey).build();
    }

    /** The same request in another reservation ({@code --reservation}; empty: none). */
    public JobRequest withReservation(String newReservation) {
        return toBuilder().reservation(newReservation).build();
    }

    /** Tasks requested; Slurm defaults to one task per requested node. */
    public int effectiveTasks() {
        return size.effectiveTasks();
    }

    public int effectiveCpusPerTask() {
        return size.effectiveCpusPerTask();
    }

    public int effectiveMinNodes() {
        return size.effectiveMinNodes();
    }
}
