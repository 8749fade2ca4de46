package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.conf.PartitionConf;
import dev.sluice.common.slurm.PartitionState;
import dev.sluice.common.slurm.SlurmLimits;
import java.util.List;

/**
 * A partition as configured: a named set of nodes with limits and defaults. Built with {@link
 * #builder}; access and memory mean what slurm.conf's do, limits hold the controller's sentinels.
 *
 * @param access who may use it ({@code Hidden} among it)
 * @param limits what one job may ask of it
 * @param memory its memory defaults and limits
 * @param scheduling how its jobs are ordered, packed and preempted
 */
public record Partition(
        String name,
        List<String> nodes,
        boolean isDefault,
        PartitionState state,
        PartitionConf.Access access,
        Limits limits,
        PartitionConf.Memory memory,
        Scheduling scheduling) {

    /** Node count meaning "no limit"; Slurm's INFINITE. */
    public static final int NODES_UNLIMITED = Integer.MAX_VALUE;

    public Partition {
        requireNonNull(name, "name is null");
        nodes = List.copyOf(nodes);
        requireNonNull(state, "state is null");
        requireNonNull(access, "access is null");
        requireNonNull(limits, "limits is null");
        requireNonNull(memory, "memory is null");
        requireNonNull(scheduling, "scheduling is null");
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** The same partition with other members (dynamic nodes joining or leaving). */
    public Partition withNodes(List<String> newNodes) {
        return new Partition(name, newNodes, isDefault, state, access, limits, memory, scheduling);
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

    /**
     * What one job may ask of the partition, in the controller's units: minutes with {@link
     * SlurmLimits#NO_VAL} for no DefaultTime and {@link SlurmLimits#INFINITE} for UNLIMITED, node
     * counts with {@link #NODES_UNLIMITED}.
     */
    public record Limits(long maxTimeMinutes, long defaultTimeMinutes, int maxNodes, int minNodes) {

        /** No time or node count limit, no default time. */
        public static final Limits NONE =
                new Limits(JobRequest.TIME_INFINITE, JobRequest.TIME_NOT_SET, NODES_UNLIMITED, 0);

        /** slurm.conf's limits, whose sentinels are common's, in the controller's units. */
        public static Limits of(PartitionConf.Limits conf) {
            return new Limits(
                    minutes(conf.maxTimeMinutes()),
                    minutes(conf.defaultTimeMinutes()),
                    conf.maxNodes() == PartitionConf.UNLIMITED || conf.maxNodes() > Integer.MAX_VALUE
                            ? NODES_UNLIMITED
                            : (int) conf.maxNodes(),
                    (int) Math.min(Integer.MAX_VALUE, conf.minNodes()));
        }

        /** common's TimeLimit sentinels → the wire-compatible ones the controller keeps. */
        private static long minutes(long value) {
            return value < 0 ? SlurmLimits.NO_VAL : SlurmLimits.toUint32(value);
        }
    }

    /**
     * How the partition's jobs are ordered, packed and preempted.
     *
     * @param overSubscribe as {@code scontrol show partition} prints it ({@code NO}, {@code
     *     EXCLUSIVE}, {@code YES:4}, {@code FORCE:2})
     * @param preemptMode what preemption does to its jobs as {@code scontrol show partition} shows
     *     it: its own {@code PreemptMode}, else the cluster's ({@code OFF}, {@code REQUEUE}, ...)
     * @param graceTimeSeconds {@code GraceTime}: how long its preempted jobs get between SIGTERM
     *     and the kill
     */
    public record Scheduling(
            int priorityTier, int priorityJobFactor, String overSubscribe, String preemptMode, long graceTimeSeconds) {

        public Scheduling {
            requireNonNull(overSubscribe, "overSubscribe is null");
            requireNonNull(preemptMode, "preemptMode is null");
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
    }

    /** Assembles a {@link Partition}; anything not set is open, unlimited and plain. */
    public static final class Builder {
        private final String name;
        private List<String> nodes = List.of();
        private boolean isDefault;
        private PartitionState state = PartitionState.UP;
        private PartitionConf.Access access = PartitionConf.Access.OPEN;
        private Limits limits = Limits.NONE;
        private PartitionConf.Memory memory = PartitionConf.Memory.NONE;
        private int priorityTier = 1;
        private int priorityJobFactor = 1;
        private String overSubscribe = "NO";
        private String preemptMode = "OFF";
        private long graceTimeSeconds;

        private Builder(String name) {
            this.name = requireNonNull(name, "name is null");
        }

        public Builder nodes(List<String> value) {
            this.nodes = value;
            return this;
        }

        public Builder isDefault(boolean value) {
            this.isDefault = value;
            return this;
        }

        public Builder state(PartitionState value) {
            this.state = value;
            return this;
        }

        public Builder access(PartitionConf.Access value) {
            this.access = value;
            return this;
        }

        public Builder limits(Limits value) {
            this.limits = value;
            return this;
        }

        public Builder memory(PartitionConf.Memory value) {
            this.memory = value;
            return this;
        }

        public Builder priorityTier(int value) {
            this.priorityTier = value;
            return this;
        }

        public Builder priorityJobFactor(int value) {
            this.priorityJobFactor = value;
            return this;
        }

        public Builder overSubscribe(String value) {
            this.overSubscribe = value;
            return this;
        }

        public Builder preemptMode(String value) {
            this.preemptMode = value;
            return this;
        }

        public Builder graceTimeSeconds(long value) {
            this.graceTimeSeconds = value;
            return this;
        }

        public Partition build() {
            Scheduling scheduling =
                    new Scheduling(priorityTier, priorityJobFactor, overSubscribe, preemptMode, graceTimeSeconds);
            return new Partition(name, nodes, isDefault, state, access, limits, memory, scheduling);
        }
    }
}
