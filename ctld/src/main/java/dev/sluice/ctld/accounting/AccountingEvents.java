package dev.sluice.ctld.accounting;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import dev.sluice.common.tres.Tres;
import dev.sluice.ctld.gres.GresGrant;
import dev.sluice.ctld.gres.GresUnit;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobLifecycle;
import dev.sluice.ctld.state.JobStep;
import dev.sluice.ctld.state.Node;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.ctld.wire.WireMapper;
import dev.sluice.protocol.v1.AccountingJob;
import dev.sluice.protocol.v1.AccountingRecord;
import dev.sluice.protocol.v1.ClusterTresRecord;
import dev.sluice.protocol.v1.JobAccountingRecord;
import dev.sluice.protocol.v1.StepAccountingRecord;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.IntToLongFunction;
import java.util.function.ToLongFunction;

/**
 * What accounting learns from one journal record: the job as it stands after it and, once the
 * job holds nodes, its batch step. Pure: the job after the record in, records (without
 * sequence numbers) out. Node and purge records carry nothing for accounting.
 */
public final class AccountingEvents {
    /** SLURM_BATCH_SCRIPT, the batch step's id in Slurm's numbering. */
    public static final int BATCH_STEP = dev.sluice.common.slurm.StepIds.BATCH;

    private AccountingEvents() {}

    /**
     * What a job's TRES depend on besides the job.
     *
     * @param memoryConsumable whether memory is allocated ({@code SelectTypeParameters=CR_*_Memory}):
     *     without, Slurm's AllocTRES count no memory and its steps' {@code mem=0}
     * @param partitionMemoryMb a partition's smallest RealMemory: what ReqTRES counts per node
     *     for a job that asked for no memory ({@link #partitionMemory})
     * @param priority a job's priority by id, as the last scheduling pass gave it (0 for none)
     * @param reservationId a reservation's number by name (sacct ReservationId), 0 when unknown
     * @param trackedLicenses the licenses AccountingStorageTRES names: those in jobs' TRES
     */
    public record Site(
            boolean memoryConsumable,
            ToLongFunction<String> partitionMemoryMb,
            IntToLongFunction priority,
            java.util.function.ToIntFunction<String> reservationId,
            java.util.Set<String> trackedLicenses) {
        public Site {
            requireNonNull(partitionMemoryMb, "partitionMemoryMb is null");
            requireNonNull(priority, "priority is null");
            requireNonNull(reservationId, "reservationId is null");
            trackedLicenses = java.util.Set.copyOf(trackedLicenses);
        }

        /** A site whose reservations are not known (every id 0) and that tracks no license. */
        public static Site withoutReservations(
                boolean memoryConsumable, ToLongFunction<String> partitionMemoryMb, IntToLongFunction priority) {
            return new Site(memoryConsumable, partitionMemoryMb, priority, name -> 0, java.util.Set.of());
        }
    }

    /** @param after the job the record names, as the state holds it after the record; may be null */
    public static List<AccountingRecord.Builder> of(StateRecord record, Job after, Site site) {
        if (after == null) {
            return List.of();
        }
        boolean memoryConsumable = site.memoryConsumable();
        int nobody = StateRecord.JobEnded.NOBODY;
        return switch (record) {
            case StateRecord.JobSubmitted r -> List.of(job(after, nobody, site));
            // A requeue submitted the job anew: this is its next run's record ({@link #runEnded}
            // closed the one before).
            case StateRecord.JobRequeued r -> List.of(job(after, nobody, site));
            // sacct shows SUSPENDED while it lasts, as Slurm's accounting does.
            case StateRecord.JobSuspendChanged r -> List.of(job(after, nobody, site));
            // An allocation (salloc, a lone srun) runs no script: it has no batch step.
            case StateRecord.JobStarted r ->
                isBatch(after)
                        ? List.of(job(after, nobody, site), batchStep(after, memoryConsumable))
                        : List.of(job(after, nobody, site));
            case StateRecord.JobEnded r ->
                isBatch(after) && after.allocation() != null && after.run().startTime() > 0
                        ? List.of(job(after, r.requid(), site), batchStep(after, memoryConsumable))
                        : List.of(job(after, r.requid(), site));
            case StateRecord.JobsPurged r -> List.of();
            case StateRecord.StepRecorded r -> List.of(step(after, r.step(), memoryConsumable));
            // Both the task that splits off (its own job id now) and the array record left
            // behind (fewer pending tasks) are shipped, so sacct lists 6_1 and 6_[2-4] at once.
            case StateRecord.ArrayTaskSplit r -> List.of(job(after, nobody, site));
            // Holds change no accounting field, nor does a GraceTime starting (the end will).
            case StateRecord.JobHoldChanged r -> List.of();
            case StateRecord.JobPreemptGraceStarted r -> List.of();
            // Slurm 22.05 ships a preempted job's end at once, exit code 0, and not again when
            // the node's report comes: sacct keeps PREEMPTED 0:0 (compat 250).
            case StateRecord.JobEndReported r -> List.of();
            case StateRecord.JobUpdated r -> List.of(job(after, nobody, site));
            case StateRecord.NodeRegistered r -> List.of();
            case StateRecord.NodeStateChanged r -> List.of();
            case StateRecord.NodeCreated r -> List.of();
            case StateRecord.NodeDeleted r -> List.of();
            case StateRecord.ReservationSaved r -> List.of();
            case StateRecord.ReservationDeleted r -> List.of();
            case StateRecord.ControllerStarted r -> List.of();
            case StateRecord.PrologWait r -> List.of();
        };
    }

    /**
     * The record of the run a requeue ends, from the job as it stood before the record (its
     * next run is another record, {@link #of}): the run ended at the requeue, REQUEUED (or
     * PREEMPTED, requeued by a preemptor), exit code 0, and its batch step CANCELLED by the
     * SIGTERM that stopped the script, as Slurm 22.05 records them. Nothing for other records
     * and for a job that held no nodes (a finished job requeued keeps its record as it was).
     */
    public static List<AccountingRecord.Builder> runEnded(StateRecord record, Job before, Site site) {
        if (!(record instanceof StateRecord.JobRequeued r)
                || before == null
                || before.allocation() == null
                || before.run().startTime() <= 0
                || before.status().state().isFinished()) {
            return List.of();
        }
        Job run = before.ended(
                JobState.CANCELLED, SIGTERM, r.time(), before.status().reason());
        AccountingRecord.Builder job = job(run, StateRecord.JobEnded.NOBODY, site);
        JobAccountingRecord.Builder b = job.getJobBuilder();
        b.getAccountingJobBuilder()
                .setState(
                        r.preempted()
                                ? WireMapper.toWire(JobState.PREEMPTED)
                                : dev.sluice.protocol.v1.JobState.REQUEUED)
                .setExitStatus(0);
        return isBatch(before) ? List.of(job, batchStep(run, site.memoryConsumable())) : List.of(job);
    }

    /** The signal that ends a requeued job's script. */
    private static final int SIGTERM = 15;

    private static boolean isBatch(Job job) {
        return !job.request().launch().script().isEmpty();
    }

    /** Whether a record can change the cluster's size (its TRES totals). */
    public static boolean changesSize(StateRecord record) {
        return record instanceof StateRecord.NodeRegistered
                || record instanceof StateRecord.NodeCreated
                || record instanceof StateRecord.NodeDeleted
                || record instanceof StateRecord.NodeStateChanged;
    }

    /**
     * The cluster's TRES totals in the named form: CPUs, memory, nodes, billing (= CPUs, as
     * Slurm's default weights) and each consumable GRES, over every node but FUTURE ones; then
     * the licenses AccountingStorageTRES names, with slurm.conf's totals (Slurm 22.05:
     * {@code license/foo=4} in the cluster's TRES, and so {@code license/foo} in sacctmgr show
     * tres from the start).
     *
     * @param licenseTotals the tracked licenses' configured counts, by name
     */
    public static String clusterTres(Collection<Node> nodes, Map<String, Long> licenseTotals) {
        Tres t = tresOf(nodes, false);
        for (var e : new TreeMap<>(licenseTotals).entrySet()) {
            t = t.with(Tres.LICENSE + e.getKey(), e.getValue());
        }
        return t.format();
    }

    /** The same totals over the nodes DOWN or DRAINED by an administrator (Slurm's node events). */
    public static String downTres(Collection<Node> nodes) {
        return tresOf(nodes, true).format();
    }

    private static Tres tresOf(Collection<Node> nodes, boolean downOnly) {
        long cpus = 0;
        long mem = 0;
        long count = 0;
        Map<String, Long> gres = new TreeMap<>();
        for (Node n : nodes) {
            if (n.admin().future()
                    || (downOnly && !n.admin().down() && !n.admin().drain())) {
                continue;
            }
            count++;
            cpus += n.hardware().cpus();
            mem += n.hardware().realMemoryMb();
            for (GresUnit u : n.gres().units()) {
                if (u.consumable()) {
                    gres.merge(u.name(), u.capacity(), Long::sum);
                }
            }
        }
        Tres t = Tres.empty()
                .with("cpu", cpus)
                .with("mem", mem)
                .with("node", count)
                .with("billing", cpus);
        for (var e : gres.entrySet()) {
            t = t.with("gres/" + e.getKey(), e.getValue());
        }
        return t;
    }

    /** The cluster's size from {@code time} on. */
    public static AccountingRecord.Builder clusterSize(long time, String tres, String downTres) {
        return AccountingRecord.newBuilder()
                .setClusterTres(ClusterTresRecord.newBuilder()
                        .setTime(time)
                        .setTres(tres)
                        .setDownTres(downTres));
    }

    /** The jobs a record changes, each to be passed to {@link #of} as it stands afterwards. */
    public static List<Integer> jobIdsOf(StateRecord record) {
        return switch (record) {
            case StateRecord.JobSubmitted r -> List.of(r.jobId());
            case StateRecord.JobRequeued r -> List.of(r.jobId());
            case StateRecord.JobSuspendChanged r -> List.of(r.jobId());
            case StateRecord.JobStarted r -> List.of(r.jobId());
            case StateRecord.JobEnded r -> List.of(r.jobId());
            case StateRecord.JobUpdated r -> List.of(r.jobId());
            case StateRecord.ArrayTaskSplit r ->
                r.newJobId() == r.jobId() || r.newJobId() == 0 ? List.of(r.jobId()) : List.of(r.newJobId(), r.jobId());
            case StateRecord.StepRecorded r -> List.of(r.jobId());
            case StateRecord.JobHoldChanged r -> List.of();
            case StateRecord.JobPreemptGraceStarted r -> List.of();
            case StateRecord.JobEndReported r -> List.of();
            case StateRecord.JobsPurged r -> List.of();
            case StateRecord.NodeRegistered r -> List.of();
            case StateRecord.NodeStateChanged r -> List.of();
            case StateRecord.NodeCreated r -> List.of();
            case StateRecord.NodeDeleted r -> List.of();
            case StateRecord.ReservationSaved r -> List.of();
            case StateRecord.ReservationDeleted r -> List.of();
            case StateRecord.ControllerStarted r -> List.of();
            case StateRecord.PrologWait r -> List.of();
        };
    }

    /** The smallest RealMemory of a partition's nodes, 0 for a partition the state does not know. */
    public static long partitionMemory(ClusterView state, String partition) {
        return state.partitions().stream()
                .filter(p -> p.name().equals(partition))
                .findFirst()
                .map(p -> p.nodes().stream()
                        .map(state::node)
                        .filter(Objects::nonNull)
                        .mapToLong(n -> n.hardware().realMemoryMb())
                        .min()
                        .orElse(0))
                .orElse(0L);
    }

    private static AccountingRecord.Builder job(Job job, int requid, Site site) {
        // AllocTRES without memory where it is not a consumable resource, made so rather than
        // made with it and parsed again to take it out.
        AccountingJob.Builder info = AccountingJobs.of(
                job,
                site.partitionMemoryMb(),
                site.priority().applyAsLong(job.id()),
                site.trackedLicenses(),
                site.memoryConsumable());
        if (killedBySignal(job)) {
            // sacct shows 0:0 for a cancelled or timed-out job; the signal that ended it is on
            // its batch step (observed on Slurm 22.05: job CANCELLED 0:0, batch CANCELLED 0:15).
            info.setExitStatus(0);
        }
        if (job.status().state() == JobState.CANCELLED && job.allocation() == null && info.getStartTime() == 0) {
            // Slurm records a job cancelled while it waited as started at its end, so that
            // sacct -s R finds it (seen when the cancel follows the submission closely, as in
            // scripts; later ones may read None, by a race inside Slurm).
            info.setStartTime(job.run().endTime());
        }
        if (job.status().state() == JobState.DEADLINE) {
            // slurmdbd stores the exit code 1 slurmctld gives such a job as 256 (sacct 1:0), and
            // the end of a job that never ran changes neither its start (None) nor the reason it
            // was submitted with (compat 304, 305). A job ended in the pass right after its
            // submission may read its end as its start, by a race inside Slurm, as for cancels.
            info.setExitStatus(1 << 8)
                    .setStartTime(0)
                    .setReason((job.request().hold() ? JobReason.JOB_HELD_USER : JobReason.NONE).slurmName());
        }
        String reservation = job.request().reservation();
        if (!reservation.isEmpty()) {
            info.setReservation(reservation)
                    .setReservationId(site.reservationId().applyAsInt(reservation));
        }
        JobAccountingRecord.Builder b = JobAccountingRecord.newBuilder()
                .setAccountingJob(info)
                .setUserName(job.request().owner().userName())
                .setReqCpus(job.request().effectiveTasks() * job.request().effectiveCpusPerTask())
                .setReqNodes(job.request().effectiveMinNodes());
        if (requid != StateRecord.JobEnded.NOBODY) {
            b.setCancelledBy(requid);
        }
        return AccountingRecord.newBuilder().setJob(b);
    }

    private static AccountingRecord.Builder batchStep(Job job, boolean memoryConsumable) {
        Allocation.NodeShare first = job.allocation().nodes().get(0);
        // Slurm ends a timed-out job's batch step as CANCELLED (it was signalled); the job
        // itself keeps TIMEOUT. So is a script that died of a signal (job FAILED 0:9, batch
        // CANCELLED 0:9).
        boolean signalled = job.status().state() == JobState.TIMEOUT
                || (job.status().state() == JobState.FAILED
                        && JobLifecycle.diedOfSignal(job.status().exitStatus()));
        JobState state = signalled ? JobState.CANCELLED : job.status().state();
        // Slurm lists mem on a step even when memory is not a consumable resource (mem=0), and
        // the job's GRES on the batch node (cpu=1,gres/gpu=2,mem=0,node=1).
        Tres tres = Tres.empty()
                .with("cpu", first.cpus())
                .with("mem", memoryConsumable ? first.memoryMb() : 0)
                .with("node", 1);
        for (var g : gresCounts(first.gres()).entrySet()) {
            tres = tres.with("gres/" + g.getKey(), g.getValue());
        }
        return AccountingRecord.newBuilder()
                .setStep(StepAccountingRecord.newBuilder()
                        .setJobId(job.id())
                        .setJobSubmitTime(job.run().submitTime())
                        .setStepId(BATCH_STEP)
                        .setName("batch")
                        .setState(WireMapper.toWire(state))
                        .setStartTime(job.run().startTime())
                        .setEndTime(job.run().endTime())
                        .setExitStatus(
                                job.status().state().isFinished() ? job.status().exitStatus() : 0)
                        .setNodeList(first.node())
                        .setNumNodes(1)
                        .setNumTasks(1)
                        .setNumCpus(first.cpus())
                        .setAllocTres(tres.format()));
    }

    private static Map<String, Long> gresCounts(List<GresGrant> grants) {
        Map<String, Long> totals = new TreeMap<>();
        grants.forEach(g -> totals.merge(g.name(), g.count(), Long::sum));
        return totals;
    }

    private static AccountingRecord.Builder step(Job job, JobStep step, boolean memoryConsumable) {
        return AccountingRecord.newBuilder()
                .setStep(StepAccountingRecord.newBuilder()
                        .setJobId(job.id())
                        .setJobSubmitTime(job.run().submitTime())
                        .setStepId(step.stepId())
                        .setName(step.name())
                        .setState(WireMapper.toWire(step.state()))
                        .setStartTime(step.startTime())
                        .setEndTime(step.endTime())
                        .setExitStatus(step.exitStatus())
                        .setNodeList(step.nodeList())
                        .setNumNodes(step.numNodes())
                        .setNumTasks(step.numTasks())
                        .setNumCpus(step.cpus())
                        .setAllocTres(memoryConsumable ? step.tres() : unallocatedMemory(step.tres())));
    }

    /** A step's TRES with {@code mem=0}, as Slurm shows them where memory is not allocated. */
    private static String unallocatedMemory(String tres) {
        try {
            return Tres.parse(tres).with("mem", 0).format();
        } catch (IllegalArgumentException e) {
            return tres;
        }
    }

    private static boolean killedBySignal(Job job) {
        int status = job.status().exitStatus();
        return (job.status().state() == JobState.CANCELLED
                        || job.status().state() == JobState.TIMEOUT
                        || job.status().state() == JobState.PREEMPTED)
                && (status & 0xff00) == 0
                && (status & 0x7f) != 0;
    }
}
