package dev.sluice.cli.view;

import static java.util.Objects.requireNonNull;

import dev.sluice.cli.UserDirectory;
import dev.sluice.common.slurm.JobStateFlag;
import dev.sluice.common.slurm.SlurmLimits;
import dev.sluice.common.time.Elapsed;
import dev.sluice.common.time.SlurmTimestamp;
import dev.sluice.common.time.TimeLimit;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.JobState;
import java.time.Clock;
import java.time.Instant;
import java.util.List;

/**
 * One job as the commands see it: the controller's {@link JobInfo} plus the values Slurm's
 * commands compute from it at print time (run time against {@code now}, names from ids).
 * Times on the wire are seconds since the epoch, 0 meaning "not set".
 */
public final class JobView {
    /** The controller's hold for a job whose reservation was forgotten ({@code JobInfo.hold}). */
    private static final String RESV_DEL_HOLD = "RESV_DEL";

    private final JobInfo job;
    private final Instant now;
    private final Clock zoneSource;
    private final UserDirectory users;

    /**
     * @param now the instant run times are measured to, the same for every job of one listing
     * @param zoneSource whose zone dates print in; asked only when a date is printed, because
     *     loading the time-zone rules costs a command start-up time that most listings do not need
     */
    public JobView(JobInfo job, Instant now, Clock zoneSource, UserDirectory users) {
        this.job = requireNonNull(job, "job is null");
        this.now = requireNonNull(now, "now is null");
        this.zoneSource = requireNonNull(zoneSource, "zoneSource is null");
        this.users = requireNonNull(users, "users is null");
    }

    public JobInfo info() {
        return job;
    }

    public JobSpec spec() {
        return job.getSpec();
    }

    public JobState state() {
        return job.getState();
    }

    /**
     * Ended, its processes still being killed: Slurm's COMPLETING flag, which squeue and scontrol
     * print instead of the state it ended in.
     */
    public boolean completing() {
        return job.getCompleting();
    }

    /**
     * Pending, held because the reservation it named was forgotten: Slurm's RESV_DEL_HOLD flag,
     * which squeue and scontrol print instead of PENDING (compat 255).
     */
    public boolean resvDelHold() {
        return state() == JobState.PENDING && RESV_DEL_HOLD.equals(job.getHold());
    }

    /** The state as squeue {@code %T} and scontrol {@code JobState=} print it. */
    public String stateName() {
        if (resvDelHold()) {
            return JobStateFlag.RESV_DEL_HOLD.name();
        }
        return completing() ? JobStateFlag.COMPLETING.name() : JobStates.longName(state());
    }

    /** The state as squeue {@code %t} prints it. */
    public String stateCompact() {
        if (resvDelHold()) {
            return JobStateFlag.RESV_DEL_HOLD.compact();
        }
        return completing() ? JobStateFlag.COMPLETING.compact() : JobStates.compactName(state());
    }

    /** The id squeue shows ({@code %i}): {@code 12}, an array task {@code 11_1}, pending tasks {@code 11_[3-4%2]}. */
    public String jobId() {
        return job.getDisplayId().isEmpty() ? internalId() : job.getDisplayId();
    }

    /** The record's own job id ({@code %A}, scontrol's {@code JobId=}). */
    public String internalId() {
        return Integer.toUnsignedString(job.getJobId());
    }

    public boolean isArray() {
        return job.getArrayJobId() != 0;
    }

    /** squeue {@code %F}: the array's id, or the job's own id for a plain job. */
    public String arrayJobId() {
        return isArray() ? Integer.toUnsignedString(job.getArrayJobId()) : internalId();
    }

    /** squeue {@code %K}, scontrol {@code ArrayTaskId=}: a task, pending tasks ({@code 3-4%2}), or {@code N/A}. */
    public String arrayTaskId() {
        if (!isArray()) {
            return "N/A";
        }
        return job.getArrayTaskId() >= 0 ? Integer.toString(job.getArrayTaskId()) : job.getArrayTaskStr();
    }

    /** The {@code %N} limit of the job's array, when it has one. */
    public java.util.OptionalInt arrayThrottle() {
        java.util.OptionalInt t = ArrayTasks.throttle(job.getArrayTaskStr());
        return t.isPresent() ? t : ArrayTasks.throttle(spec().getArray());
    }

    /**
     * The batch script as squeue {@code %o} and scontrol {@code Command=} show it: its path
     * followed by its arguments ({@code /tmp/x.sh a b}); {@code (null)} for {@code --wrap} and
     * standard-input scripts (observed with Slurm 22.05).
     */
    public String command() {
        String path = spec().getCommand();
        if (path.isEmpty()) {
            return "(null)";
        }
        List<String> args = spec().getScriptArgsList();
        return args.isEmpty() ? path : path + " " + String.join(" ", args);
    }

    public String name() {
        return spec().getName();
    }

    public long uid() {
        return Integer.toUnsignedLong(spec().getOwner().getUid());
    }

    public long gid() {
        return Integer.toUnsignedLong(spec().getOwner().getGid());
    }

    public String userName() {
        String name = spec().getOwner().getUserName();
        if (!name.isEmpty()) {
            return name;
        }
        return users.userName(uid()).orElse(Long.toString(uid()));
    }

    public String groupName() {
        return users.groupName(gid()).orElse(Long.toString(gid()));
    }

    public String partition() {
        return job.getPartition().isEmpty() ? spec().getPartition() : job.getPartition();
    }

    public String workDir() {
        return job.getWorkDir().isEmpty() ? spec().getWorkDir() : job.getWorkDir();
    }

    public String nodeList() {
        return NodeLists.ranged(job.getNodeList());
    }

    /** Nodes allocated, or for a job that has none yet the nodes it asked for (at least one). */
    public long nodeCount() {
        if (job.getNumNodes() > 0) {
            return Integer.toUnsignedLong(job.getNumNodes());
        }
        return Math.max(1, Integer.toUnsignedLong(spec().getMinNodes()));
    }

    public long cpuCount() {
        if (job.getNumCpus() > 0) {
            return Integer.toUnsignedLong(job.getNumCpus());
        }
        long tasks = Math.max(1, Integer.toUnsignedLong(spec().getNumTasks()));
        return tasks * cpusPerTask();
    }

    public long cpusPerTask() {
        return Math.max(1, Integer.toUnsignedLong(spec().getCpusPerTask()));
    }

    /** Slurm's MIN_CPUS: what one node must offer, cpus-per-task times tasks-per-node. */
    public long minCpusPerNode() {
        long perNode = Math.max(1, Integer.toUnsignedLong(spec().getNtasksPerNode()));
        return cpusPerTask() * perNode;
    }

    /** The pending reason, {@code None} when there is none. */
    public String reason() {
        return job.getReason().isEmpty() ? "None" : job.getReason();
    }

    /**
     * The reason as squeue's %r and scontrol's Reason= show it: Slurm's state description when
     * the controller gave one ({@code ReqNodeNotAvail, UnavailableNodes:n1}), else the reason.
     */
    public String described() {
        return job.getReasonDetail().isEmpty() ? reason() : job.getReasonDetail();
    }

    /** Minutes per {@link TimeLimit}: the controller's effective limit, else what was asked. */
    public long timeLimitMinutes() {
        if (job.getTimeLimitMinutes() != 0) {
            return SlurmLimits.fromWire(job.getTimeLimitMinutes());
        }
        int asked = spec().getTimeLimitMinutes();
        return asked == 0 ? TimeLimit.NOT_SET : SlurmLimits.fromWire(asked);
    }

    /**
     * Seconds the job has run: 0 before it starts, up to {@code now} while it runs, up to its
     * suspension while suspended, up to its end once it has ended.
     */
    public long elapsedSeconds() {
        long start = job.getStartTime();
        if (start <= 0 || state() == JobState.PENDING) {
            return 0;
        }
        if (state() == JobState.SUSPENDED) {
            return job.getPreSuspendSeconds();
        }
        long until;
        if (state() == JobState.RUNNING) {
            until = now.getEpochSecond();
        } else {
            until = job.getEndTime() > 0 ? job.getEndTime() : start;
        }
        // Resumed: the run time is what ran before the last suspension plus what ran since.
        long from = job.getSuspendTime() > 0 ? job.getSuspendTime() : start;
        return job.getPreSuspendSeconds() + Math.max(0, until - from);
    }

    /**
     * When the job ends: its end once it has ended; while it runs, when its time limit runs out
     * (Slurm 22.05's EndTime and squeue {@code %e} of a running job), 0 for no limit.
     */
    public long endTime() {
        if (job.getEndTime() > 0 || state() != JobState.RUNNING) {
            return job.getEndTime();
        }
        long limit = timeLimitMinutes();
        if (limit == TimeLimit.INFINITE || limit == TimeLimit.NOT_SET) {
            return 0;
        }
        return now.getEpochSecond() + limit * 60 - elapsedSeconds();
    }

    public String elapsed() {
        return Elapsed.format(elapsedSeconds());
    }

    /** squeue's TIME_LEFT: the limit less the run time; {@code UNLIMITED} and {@code NOT_SET} as is. */
    public String timeLeft() {
        long limit = timeLimitMinutes();
        if (limit == TimeLimit.INFINITE || limit == TimeLimit.NOT_SET) {
            return TimeLimit.formatSqueue(limit);
        }
        return Elapsed.format(limit * 60 - elapsedSeconds());
    }

    /** A time stamp or squeue's {@code N/A} when unset. */
    public String timeOrNa(long epochSeconds) {
        return epochSeconds <= 0 ? "N/A" : timestamp(epochSeconds);
    }

    /** A time stamp or scontrol's {@code Unknown} when unset. */
    public String timeOrUnknown(long epochSeconds) {
        return epochSeconds <= 0 ? SlurmTimestamp.UNKNOWN : timestamp(epochSeconds);
    }

    public String timestamp(long epochSeconds) {
        return SlurmTimestamp.format(Instant.ofEpochSecond(epochSeconds), zoneSource.getZone());
    }

    public String priority() {
        return Integer.toUnsignedString(job.getPriority());
    }

    /**
     * Slurm 22.05's TRES_PER_NODE ({@code squeue %b}, scontrol {@code TresPerNode=}): each
     * {@code --gres} item and {@code --gpus-per-node} as {@code gres:NAME:COUNT}, comma-joined;
     * {@code N/A} when none.
     */
    public String tresPerNode() {
        String s = gresList(spec().getGresPerNode());
        String gpus = gpuTres(spec().getGpusPerNode());
        String all = s.isEmpty() ? gpus : gpus.isEmpty() ? s : s + "," + gpus;
        return all.isEmpty() ? "N/A" : all;
    }

    /** {@code --gpus} as Slurm's TresPerJob ({@code gres:gpu:3}); empty when not asked. */
    public String tresPerJob() {
        return gpuTres(spec().getGpus());
    }

    /** {@code --gpus-per-task} as Slurm's TresPerTask; empty when not asked. */
    public String tresPerTask() {
        return gpuTres(spec().getGpusPerTask());
    }

    /** {@code --cpus-per-gpu} as Slurm's CpusPerTres; empty when not asked. */
    public String cpusPerTres() {
        return spec().getCpusPerGpu() == 0 ? "" : "gres:gpu:" + Integer.toUnsignedString(spec().getCpusPerGpu());
    }

    /** {@code --mem-per-gpu} (MB) as Slurm's MemPerTres; empty when not asked. */
    public String memPerTres() {
        return spec().getMemPerGpuMb() == 0 ? "" : "gres:gpu:" + spec().getMemPerGpuMb();
    }

    private static String gpuTres(String count) {
        return count.isEmpty() ? "" : "gres:gpu:" + count;
    }

    private static String gresList(String gres) {
        StringBuilder s = new StringBuilder();
        for (String item : gres.split(",")) {
            String t = item.strip();
            if (t.isEmpty()) {
                continue;
            }
            if (t.startsWith("gres:") || t.startsWith("gres/")) {
                t = t.substring(5);
            }
            if (s.length() > 0) {
                s.append(',');
            }
            s.append("gres:").append(t);
        }
        return s.toString();
    }

    /** Ended in a way squeue explains with a reason rather than with nodes. */
    public boolean showsReason() {
        return switch (state()) {
            case PENDING, FAILED, TIMEOUT, OUT_OF_MEMORY, DEADLINE -> true;
            default -> false;
        };
    }

    /** squeue's NODELIST(REASON): the reason in parentheses or the node list. */
    public String nodesOrReason() {
        if (showsReason()) {
            String detail = job.getReasonDetail();
            return "(" + (detail.isEmpty() ? reason() : detail) + ")";
        }
        return nodeList();
    }

    /** Slurm's {@code (null)} for unset strings. */
    public static String orNull(String s) {
        return s == null || s.isEmpty() ? "(null)" : s;
    }

    /**
     * The job's sharing as squeue {@code %h} and scontrol's {@code OverSubscribe=} show it:
     * {@code NO} for {@code --exclusive}, {@code YES} for {@code --oversubscribe}, else {@code OK}.
     */
    public static String overSubscribe(JobSpec spec) {
        return spec.getExclusive() ? "NO" : spec.getOversubscribe() ? "YES" : "OK";
    }
}
