package dev.sluice.ctld.sched;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.Licenses;
import dev.sluice.ctld.limits.AccountingPolicy;
import dev.sluice.ctld.limits.Enforcement;
import dev.sluice.ctld.limits.Qos;
import dev.sluice.ctld.queue.Priorities;
import dev.sluice.ctld.queue.QosPriorities;
import dev.sluice.ctld.select.NodeCapacity;
import dev.sluice.ctld.select.PlacementRequest;
import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.NodeView;
import dev.sluice.ctld.state.Partition;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One scheduling pass, main scheduler and backfill as one algorithm (Flux's queue policies):
 * pending jobs in priority order; each is placed by the {@link dev.sluice.ctld.select.Allocator} on what the
 * {@link AvailabilityTimeline} says it may use for its whole time limit. A job that cannot
 * start gets a reservation at the earliest time it fits (for the first {@code reservationDepth}
 * such jobs: 1 is EASY backfill, more is conservative), and every later job may start now only
 * on resources no reservation needs before it ends. With backfill off (sched/builtin), the first
 * blocked job of a partition stops that partition.
 *
 * <p>Pure: reads an immutable image and a time, returns a plan. The allocator's answers are
 * remembered within the pass ({@link PlacementMemo}), so a deep queue of similar jobs costs a
 * search per distinct job shape and capacity, not per job.
 */
public final class Scheduler {
    /** At most this many start times are tried when looking for a reservation. */
    static final int MAX_CANDIDATE_TIMES = 200;

    private final SchedulerConfig config;

    public Scheduler(SchedulerConfig config) {
        this.config = config;
    }

    /** The settings this scheduler was made with (slurm.conf as last read). */
    public SchedulerConfig config() {
        return config;
    }

    /**
     * Per-cluster defaults the allocator applies to a request.
     *
     * @param gresNames GRES names the cluster knows (GresTypes and node inventories)
     */
    /**
     * @param enforcePartLimits {@code EnforcePartLimits} other than {@code NO}: a job over its
     *     partition's limits is refused at submission instead of pending ({@link PartitionFit})
     */
    /**
     * @param licenses slurm.conf's {@code Licenses}: what jobs' {@code --licenses} may name, and
     *     how many of each running jobs may hold together
     */
    public record SelectDefaults(
            boolean memoryConsumable,
            long defMemPerCpuMb,
            Set<String> gresNames,
            boolean enforcePartLimits,
            Licenses licenses) {
        public SelectDefaults {
            gresNames = Set.copyOf(gresNames);
            java.util.Objects.requireNonNull(licenses, "licenses is null");
        }

        /**
         * slurm.conf's defaults: memory not consumable, no DefMemPerCPU, no GRES, {@code
         * EnforcePartLimits=NO}, no licenses.
         */
        public static final SelectDefaults DEFAULT = builder().build();

        public static Builder builder() {
            return new Builder();
        }

        /** Collects the allocator's defaults; what is not set keeps slurm.conf's default. */
        public static final class Builder {
            private boolean memoryConsumable;
            private long defMemPerCpuMb;
            private Set<String> gresNames = Set.of();
            private boolean enforcePartLimits;
            private Licenses licenses = Licenses.NONE;

            private Builder() {}

            /** {@code SelectTypeParameters} with memory ({@code CR_*_Memory}). */
            public Builder memoryConsumable(boolean value) {
                this.memoryConsumable = value;
                return this;
            }

            public Builder defMemPerCpuMb(long value) {
                this.defMemPerCpuMb = value;
                return this;
            }

            public Builder gresNames(Set<String> value) {
                this.gresNames = value;
                return this;
            }

            public Builder enforcePartLimits(boolean value) {
                this.enforcePartLimits = value;
                return this;
            }

            public Builder licenses(Licenses value) {
                this.licenses = value;
                return this;
            }

            public SelectDefaults build() {
                return new SelectDefaults(memoryConsumable, defMemPerCpuMb, gresNames, enforcePartLimits, licenses);
            }
        }
    }

    public SchedulePlan schedule(ClusterImage image, long now) {
        return schedule(image, now, Enforcement.NONE, AccountingPolicy.EMPTY);
    }

    /**
     * A pass under AccountingStorageEnforce: jobs over their association's or QOS's limits wait
     * with Slurm's reasons, and QOS priorities from accounting (when it has any) feed the QOS
     * factor in place of slurm.conf's defaults.
     */
    public SchedulePlan schedule(ClusterImage image, long now, Enforcement enforce, AccountingPolicy policy) {
        QosPriorities qos = policy.qosPriorities().orElse(config.qos());
        // The Fair Tree factors walk every job in the table (usage); only priority/multifactor
        // reads them, so a priority/basic pass does not work them out.
        Map<Integer, Long> priorities = Priorities.compute(
                image,
                config.priority(),
                qos,
                policy.associations().isEmpty() || !config.priority().multifactor()
                        ? null
                        : dev.sluice.ctld.limits.FairTree.ofJobs(policy, image, config.priority(), now),
                now);
        boolean thresholds = policy.qos().values().stream().anyMatch(q -> q.usageThreshold() != Qos.THRESHOLD_UNSET);
        SchedulingPass pass = new SchedulingPass(
                config,
                image,
                now,
                priorities,
                enforce,
                policy,
                thresholds
                        ? dev.sluice.ctld.limits.FairTree.forThreshold(policy, image, config.priority(), now)
                        : job -> 1.0);
        // A held job waits whatever else happens and holds nothing back: its reason is known
        // without ordering or placing it (a queue of held jobs costs a pass next to nothing).
        List<Job> pending = new ArrayList<>();
        for (Job job : image.pendingJobs()) {
            switch (job.terms().hold()) {
                case USER -> pass.reasons.put(job.id(), JobReason.JOB_HELD_USER);
                case ADMIN -> pass.reasons.put(job.id(), JobReason.JOB_HELD_ADMIN);
                case RESV_DEL -> pass.reasons.put(job.id(), JobReason.RESERVATION_DELETED);
                case NONE -> pending.add(job);
            }
        }
        pending.sort(order(image, priorities));
        for (Job job : pending) {
            pass.consider(job);
        }
        return new SchedulePlan(
                pass.starts,
                pass.cancels,
                pass.pastDeadline,
                pass.reasons,
                pass.backfill.expected,
                priorities,
                pass.details,
                pass.backfill.reserved,
                pass.preempts,
                pass.resumes);
    }

    /**
     * Jobs in an advance reservation first (as Slurm's job queue sorts them, so that a job
     * waiting outside a reservation does not hold back the reservation's own jobs: compat 162),
     * then higher partition PriorityTier, then higher priority, then older.
     */
    static Comparator<Job> order(ClusterImage image, Map<Integer, Long> priorities) {
        Map<String, Integer> tiers = new HashMap<>();
        for (Partition p : image.partitions()) {
            tiers.put(p.name(), p.scheduling().priorityTier());
        }
        return Comparator.comparing((Job j) -> j.request().reservation().isEmpty())
                .thenComparingInt((Job j) -> -tiers.getOrDefault(j.terms().partition(), 0))
                .thenComparingLong(j -> -priorities.getOrDefault(j.id(), 0L))
                .thenComparingInt(Job::id);
    }

    /** What a reservation search depends on besides the timeline. */
    record SearchKey(String partition, PlacementRequest request, long seconds, String fence) {}

    static long endOf(long start, Job job) {
        long limit = job.terms().timeLimitMinutes();
        return limit >= JobRequest.TIME_NOT_SET ? Long.MAX_VALUE : start + limit * 60;
    }

    static NodeCapacity capacityOf(NodeView view) {
        return new NodeCapacity(
                view.name(),
                view.node().hardware(),
                view.freeCpus(),
                view.freeMemoryMb(),
                view.runningJobs() == 0 && view.allocCpus() == 0,
                view.isSchedulable(),
                view.node().features(),
                view.node().weight(),
                view.gres(),
                view.busyCores());
    }

    /** Applies partition and cluster defaults to a job's request ({@link RequestDefaults}). */
    public static PlacementRequest placementRequest(JobRequest request, Partition partition, SelectDefaults defaults) {
        return RequestDefaults.apply(request, partition, defaults);
    }
}
