package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.slurm.PartitionState;
import java.util.List;

/**
 * A partition as configured: a named set of nodes with limits and defaults.
 *
 * @param preemptMode what preemption does to its jobs as {@code scontrol show partition} shows
 *     it: its own {@code PreemptMode}, else the cluster's ({@code OFF}, {@code REQUEUE}, ...)
 * @param graceTimeSeconds {@code GraceTime}: how long its preempted jobs get between SIGTERM and
 *     the kill
 */
public record Partition(
        String name,
        List<String> nodes,
        boolean isDefault,
        long maxTimeMinutes,
        long defaultTimeMinutes,
        int maxNodes,
        int minNodes,
        PartitionState state,
        long defMemPerCpuMb,
        long maxMemPerNodeMb,
        int priorityTier,
        int priorityJobFactor,
        boolean hidden,
        String preemptMode,
        long graceTimeSeconds,
        String overSubscribe) {

    /** Node count meaning "no limit"; Slurm's INFINITE. */
    public static final int NODES_UNLIMITED = Integer.MAX_VALUE;

    public Partition {
        requireNonNull(name, "name is null");
        requireNonNull(preemptMode, "preemptMode is null");
        nodes = List.copyOf(nodes);
        requireNonNull(state, "state is null");
        requireNonNull(overSubscribe, "overSubscribe is null");
    }

    /**
     * {@code OverSubscribe=FORCE}: its jobs' resources may be shared without the jobs asking,
     * which Slurm 22.05 needs on both partitions for a job of one to suspend a job of the other
     * ({@code PreemptMode=SUSPEND}; with NO or YES the preemptor just waits).
     */
    public boolean forcesOverSubscribe() {
        return overSubscribe.startsWith("FORCE");
    }

    /**
     * How many jobs may at most be allocated each core: N for {@code OverSubscribe=FORCE:N} or
     * {@code YES:N}, else 1.
     */
    public int sharesPerCore() {
        if (!forcesOverSubscribe() && !overSubscribe.startsWith("YES")) {
            return 1;
        }
        int colon = overSubscribe.indexOf(':');
        return colon < 0 ? 4 : Math.max(1, Integer.parseInt(overSubscribe.substring(colon + 1)));
    }

    /**
     * How many jobs may be allocated each core a job with this request gets: with {@code YES:N}
     * only a job that asks ({@code --oversubscribe}) shares, and never an {@code --exclusive} one.
     */
    public int sharesPerCore(JobRequest request) {
        if (request.placement().exclusive()
                || (!forcesOverSubscribe() && !request.placement().oversubscribe())) {
            return 1;
        }
        return sharesPerCore();
    }

    /** The same partition with other members (dynamic nodes joining or leaving). */
    public Partition withNodes(List<String> newNodes) {
        return new Partition(
                name,
                newNodes,
                isDefault,
                maxTimeMinutes,
                defaultTimeMinutes,
                maxNodes,
                minNodes,
                state,
                defMemPerCpuMb,
                maxMemPerNodeMb,
                priorityTier,
                priorityJobFactor,
                hidden,
                preemptMode,
                graceTimeSeconds,
                overSubscribe);
    }

    /** The same partition with {@code scontrol update}'s changes made. */
    public Partition with(List<PartitionChange> changes) {
        return PartitionChange.apply(this, changes);
    }

    public boolean isUp() {
        return state.runsJobs();
    }

    public boolean acceptsJobs() {
        return state.acceptsJobs();
    }
}
