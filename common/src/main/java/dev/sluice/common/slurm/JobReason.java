package dev.sluice.common.slurm;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Why a job is where it is, as Slurm spells it (its {@code job_state_reason}, squeue's REASON
 * column, {@code scontrol show job}'s {@code Reason=}): why a pending job waits, and why an ended
 * job ended. {@link #slurmName()} is the spelling; compare the constants, never the text.
 */
public enum JobReason {
    NONE("None"),
    /** Running, its allocation Prolog not yet done ({@code PrologFlags=Alloc}): Slurm's WAIT_PROLOG. */
    PROLOG("Prolog"),
    // Waiting: the queue and the job's own conditions.
    PRIORITY("Priority"),
    RESOURCES("Resources"),
    DEPENDENCY("Dependency"),
    DEPENDENCY_NEVER_SATISFIED("DependencyNeverSatisfied"),
    JOB_HELD_USER("JobHeldUser"),
    JOB_HELD_ADMIN("JobHeldAdmin"),
    /**
     * {@code scontrol requeuehold}: squeue shows the description Slurm gives the hold, not a
     * reason name.
     */
    REQUEUED_HELD("job requeued in held state"),
    /**
     * Its node's Prolog failed: requeued and held for an operator (Slurm's launch failure hold,
     * compat 263); squeue shows the description, as for {@link #REQUEUED_HELD}.
     */
    LAUNCH_FAILED_REQUEUED_HELD("launch failed requeued held"),
    BEGIN_TIME("BeginTime"),
    BAD_CONSTRAINTS("BadConstraints"),
    REQ_NODE_NOT_AVAIL("ReqNodeNotAvail"),
    JOB_ARRAY_TASK_LIMIT("JobArrayTaskLimit"),
    /** The job's {@code --reservation} has not started yet. */
    RESERVATION("Reservation"),
    /**
     * The reservation the pending job named was forgotten (Slurm's WAIT_RESV_DELETED); squeue and
     * scontrol show the description that names it ({@code Reservation r1 was deleted}).
     */
    RESERVATION_DELETED("ReservationDeleted"),
    /** A node the job asks for by name is held by an advance reservation it is not in. */
    MAY_BE_RESERVED("ReqNodeNotAvail, May be reserved for other job"),
    /** The job would fit but for nodes advance reservations hold (Slurm's WAIT_NODE_NOT_AVAIL text). */
    NODES_RESERVED("Nodes required for job are DOWN, DRAINED or reserved for jobs in higher priority partitions"),
    /** Nodes the job needs are in an active maintenance (MAINT) reservation it is not in. */
    RESERVED_FOR_MAINTENANCE("ReqNodeNotAvail, Reserved for maintenance"),
    /** Not enough of the job's {@code --licenses} are free. */
    LICENSES("Licenses"),
    // Waiting: the partition.
    PARTITION_CONFIG("PartitionConfig"),
    PARTITION_DOWN("PartitionDown"),
    PARTITION_INACTIVE("PartitionInactive"),
    PARTITION_TIME_LIMIT("PartitionTimeLimit"),
    PARTITION_NODE_LIMIT("PartitionNodeLimit"),
    // Waiting: accounting (AccountingStorageEnforce), QOS limits then association limits.
    INVALID_ACCOUNT("InvalidAccount"),
    QOS_MAX_WALL_DURATION_PER_JOB_LIMIT("QOSMaxWallDurationPerJobLimit"),
    QOS_GRP_JOBS_LIMIT("QOSGrpJobsLimit"),
    QOS_MAX_JOBS_PER_USER_LIMIT("QOSMaxJobsPerUserLimit"),
    // Refusals, not waits: sbatch prints them above "Batch job submission failed" (compat 271).
    QOS_MAX_SUBMIT_JOB_PER_USER_LIMIT("QOSMaxSubmitJobPerUserLimit"),
    QOS_GRP_SUBMIT_JOBS_LIMIT("QOSGrpSubmitJobsLimit"),
    QOS_GRP_CPU_LIMIT("QOSGrpCpuLimit"),
    QOS_GRP_MEM_LIMIT("QOSGrpMemLimit"),
    QOS_GRP_NODE_LIMIT("QOSGrpNodeLimit"),
    QOS_GRP_GRES("QOSGrpGRES"),
    QOS_MAX_CPU_PER_JOB_LIMIT("QOSMaxCpuPerJobLimit"),
    QOS_MAX_MEMORY_PER_JOB("QOSMaxMemoryPerJob"),
    QOS_MAX_NODE_PER_JOB_LIMIT("QOSMaxNodePerJobLimit"),
    QOS_MAX_GRES_PER_JOB("QOSMaxGRESPerJob"),
    // A QOS's MaxTRESPerNode: what the job asks divided by its nodes.
    QOS_MAX_CPU_PER_NODE("QOSMaxCpuPerNode"),
    QOS_MAX_MEMORY_PER_NODE("QOSMaxMemoryPerNode"),
    QOS_MAX_GRES_PER_NODE("QOSMaxGRESPerNode"),
    // A QOS with Flags=EnforceUsageThreshold whose UsageThreshold is above the job's fair share.
    QOS_USAGE_THRESHOLD("QOSUsageThreshold"),
    // A QOS's MaxTRESPerUser.
    QOS_MAX_CPU_PER_USER_LIMIT("QOSMaxCpuPerUserLimit"),
    QOS_MAX_MEMORY_PER_USER("QOSMaxMemoryPerUser"),
    QOS_MAX_NODE_PER_USER_LIMIT("QOSMaxNodePerUserLimit"),
    QOS_MAX_GRES_PER_USER("QOSMaxGRESPerUser"),
    // A QOS's MaxTRESPerAccount: Slurm 22.05 names these without "QOS" in front.
    MAX_CPU_PER_ACCOUNT("MaxCpuPerAccount"),
    MAX_MEMORY_PER_ACCOUNT("MaxMemoryPerAccount"),
    MAX_NODE_PER_ACCOUNT("MaxNodePerAccount"),
    MAX_GRES_PER_ACCOUNT("MaxGRESPerAccount"),
    ASSOC_MAX_WALL_DURATION_PER_JOB_LIMIT("AssocMaxWallDurationPerJobLimit"),
    ASSOC_GRP_JOBS_LIMIT("AssocGrpJobsLimit"),
    ASSOC_MAX_JOBS_LIMIT("AssocMaxJobsLimit"),
    ASSOC_MAX_SUBMIT_JOB_LIMIT("AssocMaxSubmitJobLimit"),
    /** Refused, not waiting: GrpSubmitJobs of the user association or an account above it (compat 282). */
    ASSOC_GRP_SUBMIT_JOBS_LIMIT("AssocGrpSubmitJobsLimit"),
    ASSOC_GRP_CPU_LIMIT("AssocGrpCpuLimit"),
    ASSOC_GRP_MEM_LIMIT("AssocGrpMemLimit"),
    ASSOC_GRP_NODE_LIMIT("AssocGrpNodeLimit"),
    ASSOC_GRP_GRES("AssocGrpGRES"),
    ASSOC_MAX_CPU_PER_JOB_LIMIT("AssocMaxCpuPerJobLimit"),
    ASSOC_MAX_MEM_PER_JOB("AssocMaxMemPerJob"),
    ASSOC_MAX_NODE_PER_JOB_LIMIT("AssocMaxNodePerJobLimit"),
    ASSOC_MAX_GRES_PER_JOB("AssocMaxGRESPerJob"),
    // An association's MaxTRESPerNode: what the job asks divided by its nodes.
    ASSOC_MAX_CPU_PER_NODE("AssocMaxCpuPerNode"),
    ASSOC_MAX_MEM_PER_NODE("AssocMaxMemPerNode"),
    ASSOC_MAX_GRES_PER_NODE("AssocMaxGRESPerNode"),
    // Ended.
    NON_ZERO_EXIT_CODE("NonZeroExitCode"),
    TIME_LIMIT("TimeLimit"),
    /** Slurm's FAIL_DEADLINE: its time limit could no longer end before its {@code --deadline}. */
    DEADLINE("DeadLine"),
    /** Slurm's FAIL_OOM. */
    OUT_OF_MEMORY("OutOfMemory"),
    /**
     * Slurm's FAIL_LAUNCH, which Slurm also gives a batch script that died of a signal it did
     * not send (the script killed itself, or something else killed it).
     */
    JOB_LAUNCH_FAILURE("JobLaunchFailure");

    private static final Map<String, JobReason> BY_NAME = new HashMap<>();

    static {
        for (JobReason r : values()) {
            BY_NAME.put(r.slurmName, r);
        }
    }

    private final String slurmName;

    JobReason(String slurmName) {
        this.slurmName = slurmName;
    }

    /** As Slurm prints it: {@code Resources}, {@code JobHeldUser}. */
    public String slurmName() {
        return slurmName;
    }

    /** The reason Slurm spells {@code name} (exactly, as journals and answers carry it). */
    public static Optional<JobReason> of(String name) {
        return Optional.ofNullable(BY_NAME.get(name));
    }

    @Override
    public String toString() {
        return slurmName;
    }
}
