package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.ctld.state.StateRecord.ArrayTaskSplit;
import dev.sluice.ctld.state.StateRecord.JobEnded;
import dev.sluice.ctld.state.StateRecord.JobHoldChanged;
import dev.sluice.ctld.state.StateRecord.JobRequeued;
import dev.sluice.ctld.state.StateRecord.JobStarted;
import dev.sluice.ctld.state.StateRecord.JobSubmitted;
import dev.sluice.ctld.state.StateRecord.JobSuspendChanged;
import dev.sluice.ctld.state.StateRecord.JobUpdated;
import dev.sluice.ctld.state.StateRecord.JobsPurged;
import dev.sluice.ctld.state.StateRecord.NodeCreated;
import dev.sluice.ctld.state.StateRecord.NodeDeleted;
import dev.sluice.ctld.state.StateRecord.NodeRegistered;
import dev.sluice.ctld.state.StateRecord.NodeStateChanged;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The controller's mutable state. Owned by the single controller thread: not thread-safe,
 * never shared. Durable parts change only through {@link #replay}; soft parts (responding
 * nodes, pending reasons) through their own setters and are rebuilt after a restart. This
 * class dispatches records (a job's to {@link JobRecords}) and builds images; the tables it keeps have their own classes ({@link
 * NodeTable}, {@link NodeUsage}, {@link NodeContact}, {@link QueueView}, {@link CompletingJobs},
 * {@link StepTable}, {@link RunMarks}, and the reused {@link NodeViews}) so each holds one kind of
 * state.
 */
public final class ClusterState implements ClusterView {
    private final JobTable jobs = new JobTable();
    private final NodeTable nodes;
    private final NodeUsage usage = new NodeUsage();
    private final NodeContact contact = new NodeContact();
    private final QueueView queue = new QueueView();
    private final CompletingJobs completing = new CompletingJobs();
    private final NodeViews nodeViews = new NodeViews();
    private final RunMarks runMarks = new RunMarks();
    private final PrologWaits prologWaits = new PrologWaits();

    /** A run preempted at its GraceTime's start: killed at {@code deadline}. */
    public record PreemptGrace(long startTime, long deadline, boolean requeue, long holdBackSeconds) {}

    private final StepTable steps = new StepTable();
    private final ControllerStarts starts = new ControllerStarts();
    private final JobRecords jobRecords;

    private int nextJobId;
    private long sequence;
    private Reservations reservations = Reservations.NONE;

    /** @param memberships which partitions dynamic nodes join, and by what */
    public ClusterState(
            Collection<Node> configuredNodes,
            List<Partition> partitions,
            List<DynamicMembership> memberships,
            int firstJobId) {
        this.nodes = new NodeTable(configuredNodes, partitions, memberships);
        this.nextJobId = firstJobId;
        this.jobRecords =
                new JobRecords(jobs, nodes::get, usage, queue, runMarks, prologWaits, steps, this::completing);
    }

    /**
     * Applies one durable change. Unknown ids are a broken invariant: the journal is corrupt; so
     * is a job record that {@link JobLifecycle} does not allow from where the job is.
     */
    public void replay(long recordSequence, StateRecord record) {
        replay(recordSequence, record, false);
    }

    /**
     * Applies one record of a snapshot: as {@link #replay}, but a snapshot is the state as
     * records, not its history, so a few summarising moves are allowed ({@link JobLifecycle#restoring}).
     */
    public void restore(long throughSequence, StateRecord record) {
        replay(throughSequence, record, true);
    }

    private void replay(long recordSequence, StateRecord record, boolean snapshot) {
        requireNonNull(record, "record is null");
        nodeViews.replayed(record);
        switch (record) {
            case JobSubmitted r -> nextJobId = Math.max(nextJobId, jobRecords.submitted(r));
            case ArrayTaskSplit r -> nextJobId = Math.max(nextJobId, jobRecords.split(r, snapshot));
            case JobStarted r -> jobRecords.started(r, snapshot);
            case StateRecord.PrologWait r -> jobRecords.prologWait(r);
            case JobEnded r -> jobRecords.ended(r, snapshot);
            case JobRequeued r -> jobRecords.requeued(r, snapshot);
            case JobUpdated r -> jobRecords.changed(r.jobId(), r, snapshot);
            case JobHoldChanged r -> jobRecords.changed(r.jobId(), r, snapshot);
            case StateRecord.JobEndReported r -> jobRecords.endReported(r, snapshot);
            case StateRecord.JobPreemptGraceStarted r -> jobRecords.preemptGraceStarted(r, snapshot);
            case JobSuspendChanged r -> jobRecords.suspendChanged(r, snapshot);
            case JobsPurged r -> jobRecords.purged(r, snapshot);
            case StateRecord.StepRecorded r -> jobRecords.stepRecorded(r);
            case NodeRegistered r -> {
                nodes.registered(r);
                usage.registered(r.name(), r.time());
            }
            case NodeCreated r -> nodes.created(r);
            case NodeDeleted r -> {
                nodes.deleted(r.name());
                contact.forget(r.name());
                usage.forget(r.name());
            }
            case NodeStateChanged r -> nodes.stateChanged(r);
            case StateRecord.ReservationSaved r -> reservations = reservations.with(r.reservation());
            case StateRecord.ReservationDeleted r -> reservations = reservations.without(r.name());
            case StateRecord.ControllerStarted r -> starts.started(r.time());
        }
        sequence = Math.max(sequence, recordSequence);
    }

    /** The job's highest ended step's status (DerivedExitCode), 0 if none. */
    int derivedExit(int jobId) {
        return steps.derivedExit(jobId);
    }

    /**
     * {@code scontrol update PartitionName=...}: the partition of that name becomes this one.
     * Soft, as in Slurm: a restart or a reconfiguration takes slurm.conf's partitions again.
     */
    public void updatePartition(Partition changed) {
        nodes.updatePartition(changed);
    }

    /**
     * {@code scontrol reconfigure}: the configuration changed under a running controller. Nodes
     * new to slurm.conf are added; partitions are taken as now configured, dynamic nodes joining
     * them again by the new rules. Nodes removed from the file stay until a restart, as in Slurm.
     * Not journaled: like the constructor's arguments it comes from the file at every start.
     */
    public void reconfigure(
            Collection<Node> configuredNodes, List<Partition> newPartitions, List<DynamicMembership> newMemberships) {
        nodes.reconfigure(configuredNodes, newPartitions, newMemberships);
        nodeViews.changed();
    }

    /** How many of the controllers' starts a state keeps: older ones concern jobs purged long since. */
    public static final int KEPT_CONTROLLER_STARTS = ControllerStarts.KEPT;

    /** When controllers started on this state, oldest first (the latest {@link #KEPT_CONTROLLER_STARTS}). */
    public List<Long> controllerStarts() {
        return starts.all();
    }

    /** Job ids are never reused, even for jobs purged before a snapshot. */
    public void reserveJobIdsBelow(int id) {
        nextJobId = Math.max(nextJobId, id);
    }

    /**
     * Records that rebuild the durable part of this state from the configuration alone: what a
     * snapshot holds. Replaying them into a fresh state yields an equal image.
     */
    public List<StateRecord> toRecords() {
        return StateSnapshots.records(this);
    }

    @Override
    public Reservations reservations() {
        return reservations;
    }

    @Override
    public int nextJobId() {
        return nextJobId;
    }

    @Override
    public long sequence() {
        return sequence;
    }

    @Override
    public Job job(int id) {
        return jobs.get(id);
    }

    /** The jobs now, in id order (an immutable table: changes made meanwhile do not show). */
    @Override
    public Collection<Job> jobs() {
        return jobs.freeze();
    }

    @Override
    public Node node(String name) {
        return nodes.get(name);
    }

    @Override
    public Collection<Node> nodes() {
        return Collections.unmodifiableCollection(nodes.values());
    }

    @Override
    public List<Partition> partitions() {
        return nodes.partitions();
    }

    @Override
    public boolean isResponding(String node) {
        return contact.isResponding(node);
    }

    /** Soft: the node answered at {@code time}. */
    public void heard(String node, long time) {
        if (contact.heard(node, time)) {
            nodeViews.changed();
        }
    }

    /** Soft: {@code --signal} was sent to the run of the job that started at {@code startTime}. */
    public void warnSignalSent(int jobId, long startTime) {
        runMarks.warnSignalSent(jobId, startTime);
    }

    /** When this run of the job is to be killed for preemption, if it is in its GraceTime. */
    @Override
    public java.util.Optional<PreemptGrace> preemptGrace(Job job) {
        return runMarks.preemptGrace(job);
    }

    @Override
    public Set<String> prologRunsOn(Job job) {
        return prologWaits.pendingOn(job);
    }

    @Override
    public boolean waitsForProlog(Job job) {
        return prologWaits.waits(job);
    }

    /** Soft: the job's batch end came and waits for the other nodes' Prologs (it shows COMPLETING). */
    public void batchEndWaits(int jobId) {
        Job job = jobs.get(jobId);
        if (job != null) {
            prologWaits.endReported(job);
        }
    }

    @Override
    public Set<String> completingOn(int jobId) {
        return completing.on(jobId);
    }

    /**
     * Soft: whether a job that ended still has processes being killed on {@code node}. Its
     * resources stay taken until no node has any left, as in Slurm: a job placed on them could
     * otherwise start beside a job that has not let go of them yet.
     */
    public void completing(int jobId, String node, boolean stillKilling) {
        Job job = jobs.get(jobId);
        // A job ended while suspended by preemption held nothing on its nodes: its preemptor does.
        boolean lent = job != null && job.suspension().byPreemption();
        if (completing.mark(jobId, job, node, stillKilling, (held, sign) -> {
            if (!lent) {
                usage.account(held, sign, nodes::get, 0);
            }
        })) {
            nodeViews.changed();
        }
    }

    @Override
    public JobReason pendingReason(Job job) {
        return queue.reason(job);
    }

    /** Whether {@code --signal} was sent to this run of the job (a requeued job gets it again). */
    @Override
    public boolean warnSignalSent(Job job) {
        return runMarks.warnSignalSent(job);
    }

    @Override
    public Map<Integer, JobSteps> steps() {
        return steps.steps();
    }

    /** Soft: a job's steps changed; null forgets them (the job no longer runs them). */
    public void setSteps(int jobId, JobSteps jobSteps) {
        steps.set(jobId, jobSteps);
    }

    /** Soft: the node stopped answering. */
    public void silent(String node) {
        if (contact.silent(node)) {
            nodeViews.changed();
        }
        // A node that stopped answering will not report its jobs' processes gone: as Slurm
        // does once a node is DOWN, its jobs stop COMPLETING.
        for (int jobId : List.copyOf(completing.jobIds())) {
            completing(jobId, node, false);
        }
    }

    /** When the node was last heard from; 0 if never since this controller started. */
    @Override
    public long lastHeard(String node) {
        return contact.lastHeard(node);
    }

    @Override
    public long priority(int jobId) {
        return queue.priority(jobId);
    }

    /** Soft: what the last scheduling pass said of the pending jobs. */
    public void setQueueView(ClusterImage.QueueFacts latest) {
        queue.set(latest.withPriorities(
                dev.sluice.ctld.queue.BasicPriorities.keepingStarted(latest.priorities(), queue.priorities(), id -> {
                    Job job = jobs.get(id);
                    return job != null
                            && !job.isPending()
                            && !job.status().state().isFinished();
                })));
    }

    @Override
    public NodeView view(Node node) {
        return usage.view(node, contact.isResponding(node.name()));
    }

    /**
     * An immutable image for readers. The parts that did not change since the last image are
     * shared with it rather than copied again.
     */
    public ClusterImage image() {
        JobTable.Frozen jobsImage = jobs.freeze();
        List<NodeView> nodesImage = nodeViews.list(nodes.values(), this::view);
        return new ClusterImage(
                sequence,
                nextJobId,
                new ClusterImage.Tables(
                        jobsImage, jobsImage.byId(), nodesImage, nodeViews.byName(), nodes.partitions(), reservations),
                queue.facts(),
                new ClusterImage.RunFacts(
                        steps.steps(),
                        completing.jobIds(),
                        steps.derivedExits(),
                        runMarks.preempting(jobs::get),
                        prologWaits.waiting(jobs::get),
                        prologWaits.endsReported(jobs::get)));
    }
}
