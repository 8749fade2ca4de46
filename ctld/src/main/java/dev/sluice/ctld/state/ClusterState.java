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
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The controller's mutable state. Owned by the single controller thread: not thread-safe,
 * never shared. Durable parts change only through {@link #replay}; soft parts (responding
 * nodes, pending reasons) through their own setters and are rebuilt after a restart. This
 * class replays records and builds images; the tables it keeps have their own classes ({@link
 * NodeTable}, {@link QueueView}, {@link CompletingJobs}, {@link StepTable}) so each holds one
 * kind of state.
 */
public final class ClusterState implements ClusterView {
    private final JobTable jobs = new JobTable();
    private final NodeTable nodes;
    private final NodeUsage usage = new NodeUsage();
    private final Set<String> responding = new HashSet<>();
    private final QueueView queue = new QueueView();
    private final CompletingJobs completing = new CompletingJobs();
    // Parts of the last image, reused by the next one while nothing they show has changed (the
    // job table shares its unchanged chunks on its own).
    private List<NodeView> nodesImage;
    private Map<String, NodeView> nodesByNameImage;
    private final Map<String, Long> lastHeard = new HashMap<>();
    /** Soft: the run (start time) of each job whose --signal went out. */
    private final Map<Integer, Long> warned = new HashMap<>();
    // Soft: jobs preempted with a GraceTime, by run (start time): when they are to be killed.
    private final Map<Integer, PreemptGrace> graced = new HashMap<>();

    /** A run preempted at its GraceTime's start: killed at {@code deadline}. */
    public record PreemptGrace(long startTime, long deadline) {}

    private final StepTable steps = new StepTable();

    private int nextJobId;
    private long sequence;
    private Reservations reservations = Reservations.NONE;

    public ClusterState(Collection<Node> configuredNodes, List<Partition> partitions, int firstJobId) {
        this(configuredNodes, partitions, List.of(), firstJobId);
    }

    /** @param memberships which partitions dynamic nodes join, and by what */
    public ClusterState(
            Collection<Node> configuredNodes,
            List<Partition> partitions,
            List<DynamicMembership> memberships,
            int firstJobId) {
        this.nodes = new NodeTable(configuredNodes, partitions, memberships);
        this.nextJobId = firstJobId;
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
        if (!(record instanceof JobSubmitted
                || record instanceof ArrayTaskSplit
                || record instanceof JobUpdated
                || record instanceof JobHoldChanged
                || record instanceof StateRecord.StepRecorded
                || record instanceof JobsPurged
                || record instanceof StateRecord.ReservationSaved
                || record instanceof StateRecord.ReservationDeleted)) {
            nodesImage = null;
        }
        switch (record) {
            case JobSubmitted r -> {
                if (jobs.get(r.jobId()) != null) {
                    throw new IllegalStateException("journal submits job " + r.jobId() + " twice");
                }
                jobs.put(Job.submitted(
                        r.jobId(),
                        r.request(),
                        r.partition(),
                        r.timeLimitMinutes(),
                        r.time(),
                        ArraySpec.partOf(r.jobId(), r.request().sequencing().array())));
                nextJobId = Math.max(nextJobId, r.jobId() + 1);
            }
            case ArrayTaskSplit r -> {
                for (Job j : JobReplay.split(requireJob(r.jobId()), r, snapshot)) {
                    jobs.put(j);
                }
                nextJobId = Math.max(nextJobId, r.newJobId() + 1);
            }
            case JobStarted r -> {
                Job started = move(requireJob(r.jobId()), r, snapshot);
                jobs.put(started);
                queue.noLongerPending(r.jobId());
                account(started.allocation(), +1, busyTime(r.time(), snapshot));
            }
            case JobEnded r -> {
                Job job = requireJob(r.jobId());
                Job ended = move(job, r, snapshot);
                if (job.holdsNodes()) {
                    account(job.allocation(), -1, busyTime(r.time(), snapshot));
                }
                if (job.isRunning() && !job.holdsNodes()) {
                    usage.lend(job.allocation(), -1);
                }
                queue.noLongerPending(r.jobId());
                jobs.put(ended);
            }
            case JobRequeued r -> {
                Job job = requireJob(r.jobId());
                Job requeued = move(job, r, snapshot);
                if (job.holdsNodes()) {
                    account(job.allocation(), -1, busyTime(r.time(), snapshot));
                }
                if (job.isRunning() && !job.holdsNodes()) {
                    usage.lend(job.allocation(), -1);
                }
                jobs.put(requeued);
            }
            case JobUpdated r -> jobs.put(move(requireJob(r.jobId()), r, snapshot));
            case JobHoldChanged r -> jobs.put(move(requireJob(r.jobId()), r, snapshot));
            case JobSuspendChanged r -> {
                Job job = requireJob(r.jobId());
                Job changed = move(job, r, snapshot);
                // Suspended by preemption, the job lends its resources to its preemptor: they
                // count on the nodes as the preemptor's until it resumes.
                if (job.holdsNodes() && !changed.holdsNodes()) {
                    account(job.allocation(), -1, 0);
                    usage.lend(job.allocation(), +1);
                } else if (!job.holdsNodes() && changed.holdsNodes()) {
                    usage.lend(job.allocation(), -1);
                    account(changed.allocation(), +1, 0);
                }
                jobs.put(changed);
            }
            case JobsPurged r -> {
                for (int id : r.jobIds()) {
                    move(requireJob(id), r, snapshot);
                }
                r.jobIds().forEach(jobs::remove);
                r.jobIds().forEach(warned::remove);
                r.jobIds().forEach(graced::remove);
                steps.purged(r.jobIds());
            }
            case StateRecord.StepRecorded r -> steps.recorded(r.jobId(), r.step(), jobs.get(r.jobId()) != null);
            case NodeRegistered r -> {
                nodes.registered(r);
                usage.registered(r.name(), r.time());
            }
            case NodeCreated r -> nodes.created(r);
            case NodeDeleted r -> {
                nodes.deleted(r.name());
                responding.remove(r.name());
                lastHeard.remove(r.name());
                usage.forget(r.name());
            }
            case NodeStateChanged r -> nodes.stateChanged(r);
            case StateRecord.ReservationSaved r -> reservations = reservations.with(r.reservation());
            case StateRecord.ReservationDeleted r -> reservations = reservations.without(r.name());
        }
        sequence = Math.max(sequence, recordSequence);
    }

    /** The job's highest ended step's status (DerivedExitCode), 0 if none. */
    int derivedExit(int jobId) {
        return steps.derivedExit(jobId);
    }

    private static Job move(Job job, StateRecord record, boolean snapshot) {
        return snapshot ? JobReplay.restore(job, record) : JobReplay.replay(job, record);
    }

    /**
     * When a node that a job lets go of counts as last busy: the record's time, except in a
     * snapshot, whose node registrations carry each node's last busy time already.
     */
    private static long busyTime(long recordTime, boolean snapshot) {
        return snapshot ? 0 : recordTime;
    }

    private void account(Allocation allocation, int sign, long time) {
        usage.account(allocation, sign, nodes::get, time);
    }

    private Job requireJob(int id) {
        Job job = jobs.get(id);
        if (job == null) {
            throw new IllegalStateException("journal refers to unknown job " + id);
        }
        return job;
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
        nodesImage = null;
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
        return responding.contains(node);
    }

    /** Soft: the node answered at {@code time}. */
    public void heard(String node, long time) {
        lastHeard.put(node, time);
        if (responding.add(node)) {
            nodesImage = null;
        }
    }

    /** Soft: {@code --signal} was sent to the run of the job that started at {@code startTime}. */
    public void warnSignalSent(int jobId, long startTime) {
        warned.put(jobId, startTime);
    }

    /** Soft: the run of the job that started at {@code startTime} was preempted, to die at {@code deadline}. */
    public void preemptGraceStarted(int jobId, long startTime, long deadline) {
        graced.put(jobId, new PreemptGrace(startTime, deadline));
    }

    /** When this run of the job is to be killed for preemption, if it is in its GraceTime. */
    @Override
    public java.util.Optional<PreemptGrace> preemptGrace(Job job) {
        PreemptGrace g = graced.get(job.id());
        return g != null && g.startTime() == job.startTime() && job.isRunning()
                ? java.util.Optional.of(g)
                : java.util.Optional.empty();
    }

    private Set<Integer> preemptingNow() {
        Set<Integer> out = new java.util.HashSet<>();
        graced.forEach((id, g) -> {
            Job job = jobs.get(id);
            if (job != null && job.isRunning() && job.startTime() == g.startTime()) {
                out.add(id);
            }
        });
        return out;
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
        boolean lent = job != null && job.preemptSuspended();
        if (completing.mark(jobId, job, node, stillKilling, (held, sign) -> {
            if (!lent) {
                account(held, sign, 0);
            }
        })) {
            nodesImage = null;
        }
    }

    @Override
    public JobReason pendingReason(Job job) {
        return queue.reason(job);
    }

    /** Whether {@code --signal} was sent to this run of the job (a requeued job gets it again). */
    @Override
    public boolean warnSignalSent(Job job) {
        return warned.getOrDefault(job.id(), -1L) == job.startTime();
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
        if (responding.remove(node)) {
            nodesImage = null;
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
        return lastHeard.getOrDefault(node, 0L);
    }

    @Override
    public long priority(int jobId) {
        return queue.priority(jobId);
    }

    /** Soft: what the last scheduling pass said of the pending jobs. */
    public void setQueueView(
            Map<Integer, JobReason> reasons,
            Map<Integer, Long> starts,
            Map<Integer, Long> prio,
            Map<Integer, String> why) {
        queue.set(reasons, starts, prio, why);
    }

    @Override
    public NodeView view(Node node) {
        return usage.view(node, responding.contains(node.name()));
    }

    /**
     * An immutable image for readers. The parts that did not change since the last image are
     * shared with it rather than copied again.
     */
    public ClusterImage image() {
        JobTable.Frozen jobsImage = jobs.freeze();
        if (nodesImage == null) {
            List<NodeView> views = new ArrayList<>(nodes.size());
            Map<String, NodeView> byName = new HashMap<>();
            for (Node node : nodes.values()) {
                NodeView view = view(node);
                views.add(view);
                byName.put(node.name(), view);
            }
            nodesImage = List.copyOf(views);
            nodesByNameImage = Map.copyOf(byName);
        }
        return new ClusterImage(
                sequence,
                jobsImage,
                jobsImage.byId(),
                nodesImage,
                nodesByNameImage,
                nodes.partitions(),
                queue.reasons(),
                queue.expectedStarts(),
                queue.priorities(),
                queue.details(),
                nextJobId,
                steps.steps(),
                completing.jobIds(),
                steps.derivedExits(),
                reservations,
                preemptingNow());
    }
}
