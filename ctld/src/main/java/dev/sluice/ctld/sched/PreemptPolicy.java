package dev.sluice.ctld.sched;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.slurm.PreemptMode;
import dev.sluice.ctld.limits.AccountingPolicy;
import dev.sluice.ctld.limits.Qos;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.Partition;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Which jobs may preempt which, as slurm.conf says ({@code PreemptType}, {@code PreemptMode},
 * {@code PreemptExemptTime}, and per partition {@code PreemptMode}; with {@code preempt/qos}
 * each QOS's {@code Preempt} list and {@code PreemptMode} from accounting).
 *
 * @param partitionModes partitions' own {@code PreemptMode}, where set
 * @param exemptSeconds {@code PreemptExemptTime}: a job that has run less is not preempted
 * @param requeueHoldBackSeconds how long a job requeued by preemption waits before it may start
 *     again (as {@code scontrol requeue}'s: Slurm's BeginTime {@code cred_expire + 1} ahead)
 * @param gang {@code PreemptMode} names {@code GANG}: jobs sharing cores in a partition that
 *     forces sharing ({@code OverSubscribe=FORCE:N}) take turns ({@link GangSlices})
 * @param timeSliceSeconds {@code SchedulerTimeSlice}: how long such a turn lasts
 * @param sliceEpoch when the turns' clock began, epoch seconds: slurmctld's timeslicer turns
 *     every {@code timeSliceSeconds} from the controller's start (compat 225), 0 for none known
 */
public record PreemptPolicy(
        Type type,
        PreemptMode clusterMode,
        Map<String, PreemptMode> partitionModes,
        long exemptSeconds,
        long requeueHoldBackSeconds,
        boolean gang,
        long timeSliceSeconds,
        long sliceEpoch) {

    /** Slurm's default {@code SchedulerTimeSlice}, in seconds. */
    public static final long DEFAULT_TIME_SLICE = 30;

    /** slurm.conf's {@code PreemptType}. */
    public enum Type {
        NONE,
        PARTITION_PRIO,
        QOS;

        public static Type of(String preemptType) {
            return switch (preemptType.strip().toLowerCase(Locale.ROOT)) {
                case "preempt/partition_prio" -> PARTITION_PRIO;
                case "preempt/qos" -> QOS;
                default -> NONE;
            };
        }
    }

    /** Slurm's default: preempt/none, PreemptMode=OFF. */
    public static final PreemptPolicy NONE =
            new PreemptPolicy(Type.NONE, PreemptMode.OFF, Map.of(), 0, 0, false, DEFAULT_TIME_SLICE, 0);

    /** Preemption without the gang scheduler ({@code PreemptMode} without {@code GANG}). */
    public static PreemptPolicy withoutGang(
            Type type,
            PreemptMode clusterMode,
            Map<String, PreemptMode> partitionModes,
            long exemptSeconds,
            long requeueHoldBackSeconds) {
        return new PreemptPolicy(
                type, clusterMode, partitionModes, exemptSeconds, requeueHoldBackSeconds, false, DEFAULT_TIME_SLICE, 0);
    }

    /** The same, its turns counted from {@code epoch} (the controller's start). */
    public PreemptPolicy startingAt(long epoch) {
        return new PreemptPolicy(
                type,
                clusterMode,
                partitionModes,
                exemptSeconds,
                requeueHoldBackSeconds,
                gang,
                timeSliceSeconds,
                epoch);
    }

    /** The last turn of the timeslicer at or before {@code now}. */
    public long lastTurn(long now) {
        return sliceEpoch + Math.floorDiv(now - sliceEpoch, timeSliceSeconds) * timeSliceSeconds;
    }

    public PreemptPolicy {
        requireNonNull(type, "type is null");
        requireNonNull(clusterMode, "clusterMode is null");
        partitionModes = Map.copyOf(partitionModes);
        if (timeSliceSeconds < 1) {
            throw new IllegalArgumentException("timeSliceSeconds must be positive");
        }
    }

    public boolean enabled() {
        return type != Type.NONE;
    }

    /**
     * Whether {@code preemptor} (to run in {@code pp}) outranks {@code victim} (running in
     * {@code vp}): a partition of a higher PriorityTier (partition_prio), or a QOS whose
     * {@code Preempt} list names the victim's (qos). Never a job of the same tier or QOS.
     */
    public boolean outranks(Job preemptor, Partition pp, Job victim, Partition vp, AccountingPolicy accounting) {
        return switch (type) {
            case NONE -> false;
            case PARTITION_PRIO ->
                vp != null && pp.scheduling().priorityTier() > vp.scheduling().priorityTier();
            case QOS -> {
                Optional<Qos> qos = Optional.ofNullable(accounting.qos().get(qosOf(preemptor)));
                String theirs = qosOf(victim);
                yield !theirs.equals(qosOf(preemptor))
                        && qos.map(q -> q.preemption().preempts().contains(theirs))
                                .orElse(false);
            }
        };
    }

    /**
     * What preemption does to {@code victim}: its QOS's mode (qos), else its partition's, else
     * the cluster's. REQUEUE of a job that may not be requeued cancels it, as Slurm does.
     */
    public PreemptMode modeOf(Job victim, Partition vp, AccountingPolicy accounting) {
        Optional<PreemptMode> own = Optional.empty();
        if (type == Type.QOS) {
            own = Optional.ofNullable(accounting.qos().get(qosOf(victim)))
                    .flatMap(q -> PreemptMode.parse(q.preemption().mode()));
        }
        if (own.isEmpty() && vp != null) {
            own = Optional.ofNullable(partitionModes.get(vp.name()));
        }
        PreemptMode mode = own.orElse(clusterMode);
        if (mode == PreemptMode.REQUEUE && !victim.request().requeue()) {
            return PreemptMode.CANCEL;
        }
        return mode;
    }

    /**
     * How long a preempted job of this mode gets between SIGTERM and its end: its QOS's
     * {@code GraceTime} (qos) or its partition's (partition_prio); with CANCEL and, as Slurm
     * 22.05 does (compat 243), with REQUEUE too; a suspended job gets none.
     */
    public long graceOf(Job victim, Partition vp, PreemptMode mode, AccountingPolicy accounting) {
        if (mode != PreemptMode.CANCEL && mode != PreemptMode.REQUEUE) {
            return 0;
        }
        if (type == Type.QOS) {
            return Optional.ofNullable(accounting.qos().get(qosOf(victim)))
                    .map(q -> q.preemption().graceSeconds())
                    .orElse(0L);
        }
        return vp == null ? 0 : vp.scheduling().graceTimeSeconds();
    }

    /**
     * Whether {@code victim} has run too short a time to be preempted: its QOS's
     * {@code PreemptExemptTime} where it has one, else the cluster's.
     */
    public boolean exempt(Job victim, long now, AccountingPolicy accounting) {
        long exempt = Optional.ofNullable(accounting.qos().get(qosOf(victim)))
                .map(q -> q.preemption().exemptSeconds())
                .filter(s -> s >= 0)
                .orElse(exemptSeconds);
        return exempt > 0 && victim.runSeconds(now) < exempt;
    }

    private static String qosOf(Job job) {
        String q = job.request().qos();
        return q == null || q.isEmpty() ? "normal" : q.toLowerCase(Locale.ROOT);
    }
}
