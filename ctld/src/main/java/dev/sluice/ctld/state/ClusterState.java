package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.gres.GresSpec;
import dev.sluice.common.slurm.JobReason;
import dev.sluice.ctld.gres.GresInventory;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The controller's mutable state. Owned by the single controller thread: not thread-safe,
 * never shared. Durable parts change only through {@link #replay}; soft parts (responding
 * nodes, pending reasons) through their own setters and are rebuilt after a restart.
 */
public final class ClusterState implements ClusterView {
    private final JobTable jobs = new JobTable();
    private final Map<String, Node> nodes = new LinkedHashMap<>();
    private final NodeUsage usage = new NodeUsage();
    private List<Partition> partitions;
    private List<DynamicMembership> memberships;
    private final Set<String> responding = new HashSet<>();
    // The queue view is replaced whole by each pass and kept immutable, so images share it.
    private Map<Integer, JobReason> pendingReasons = Map.of();
    // Jobs that ended while their processes were still being killed, and where (COMPLETING).
    private Map<Integer, Completing> completing = Map.of();
    private Map<Integer, Long> expectedStarts = Map.of();
    private Map<Integer, Long> priorities = Map.of();
    private Map<Integer, String> details = Map.of();
    private final Set<Integer> noLongerPending = new HashSet<>();
    // Parts of the last image, reused by the next one while nothing they show has changed (the
    // job table shares its unchanged chunks on its own).
    private List<NodeView> nodesImage;
    private Map<String, NodeView> nodesByNameImage;
    private final Map<String, Long> lastHeard = new HashMap<>();
    /** Soft: the run (start time) of each job whose --signal went out. */
    private final Map<Integer, Long> warned = new HashMap<>();
    /** Soft: the steps of running jobs. Immutable, replaced on each change, so images share it. */
    private Map<Integer, JobSteps> steps = Map.of();
    /**
     * Durable, derived from the journal's step records: each job's highest step exit status
     * (DerivedExitCode). Immutable, replaced on change, so images share it.
     */
    private Map<Integer, Integer> derivedExits = Map.of();

    private int nextJobId;
    private long sequence;

    public ClusterState(Collection<Node> configuredNodes, List<Partition> partitions, int firstJobId) {
        this(configuredNodes, partitions, List.of(), firstJobId);
    }

    /** @param memberships which partitions dynamic nodes join, and by what */
    public ClusterState(
            Collection<Node> configuredNodes,
            List<Partition> partitions,
            List<DynamicMembership> memberships,
            int firstJobId) {
        for (Node node : configuredNodes) {
            nodes.put(node.name(), node);
        }
        this.partitions = List.copyOf(partitions);
        this.memberships = List.copyOf(memberships);
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
                || record instanceof JobsPurged)) {
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
                for (Job j : JobLifecycle.split(requireJob(r.jobId()), r, snapshot)) {
                    jobs.put(j);
                }
                nextJobId = Math.max(nextJobId, r.newJobId() + 1);
            }
            case JobStarted r -> {
                Job started = move(requireJob(r.jobId()), r, snapshot);
                jobs.put(started);
                noLongerPending.add(r.jobId());
                account(started.allocation(), +1, busyTime(r.time(), snapshot));
            }
            case JobEnded r -> {
                Job job = requireJob(r.jobId());
                Job ended = move(job, r, snapshot);
                if (job.isRunning()) {
                    account(job.allocation(), -1, busyTime(r.time(), snapshot));
                }
                noLongerPending.add(r.jobId());
                jobs.put(ended);
            }
            case JobRequeued r -> {
                Job job = requireJob(r.jobId());
                Job requeued = move(job, r, snapshot);
                if (job.isRunning()) {
                    account(job.allocation(), -1, busyTime(r.time(), snapshot));
                }
                jobs.put(requeued);
            }
            case JobUpdated r -> jobs.put(move(requireJob(r.jobId()), r, snapshot));
            case JobHoldChanged r -> jobs.put(move(requireJob(r.jobId()), r, snapshot));
            case JobSuspendChanged r -> jobs.put(move(requireJob(r.jobId()), r, snapshot));
            case JobsPurged r -> {
                for (int id : r.jobIds()) {
                    move(requireJob(id), r, snapshot);
                }
                r.jobIds().forEach(jobs::remove);
                r.jobIds().forEach(warned::remove);
                if (r.jobIds().stream().anyMatch(derivedExits::containsKey)) {
                    Map<Integer, Integer> left = new HashMap<>(derivedExits);
                    r.jobIds().forEach(left::remove);
                    derivedExits = Map.copyOf(left);
                }
            }
            // The job may even be purged by the time it replays.
            case StateRecord.StepRecorded r -> stepRecorded(r);
            case NodeRegistered r -> registered(r);
            case NodeCreated r -> {
                if (nodes.containsKey(r.name())) {
                    throw new IllegalStateException("journal creates node " + r.name() + " twice");
                }
                Node created = Node.created(
                        r.name(),
                        r.hostname(),
                        r.addr(),
                        r.port(),
                        r.hardware(),
                        r.features(),
                        inventory(r.gres()),
                        r.weight(),
                        r.future());
                nodes.put(r.name(), created);
                joinPartitions(created);
            }
            case NodeDeleted r -> {
                requireNode(r.name());
                nodes.remove(r.name());
                leavePartitions(r.name());
                responding.remove(r.name());
                lastHeard.remove(r.name());
                usage.forget(r.name());
            }
            case NodeStateChanged r ->
                nodes.put(
                        r.name(),
                        NodeLifecycle.apply(requireNode(r.name()), r.transition(), r.reason(), r.user(), r.time()));
        }
        sequence = Math.max(sequence, recordSequence);
    }

    /** The job's highest ended step's status (DerivedExitCode), 0 if none. */
    int derivedExit(int jobId) {
        return derivedExits.getOrDefault(jobId, 0);
    }

    /** An ended step raises its job's DerivedExitCode to its own status if that is higher. */
    private void stepRecorded(StateRecord.StepRecorded r) {
        JobStep step = r.step();
        if (step.state() == dev.sluice.common.slurm.JobState.RUNNING
                || jobs.get(r.jobId()) == null
                || step.exitStatus() <= derivedExits.getOrDefault(r.jobId(), 0)) {
            return;
        }
        Map<Integer, Integer> changed = new HashMap<>(derivedExits);
        changed.put(r.jobId(), step.exitStatus());
        derivedExits = Map.copyOf(changed);
    }

    private static Job move(Job job, StateRecord record, boolean snapshot) {
        return snapshot ? JobLifecycle.restore(job, record) : JobLifecycle.replay(job, record);
    }

    private void registered(NodeRegistered r) {
        Node existing = nodes.get(r.name());
        Node base = existing != null
                ? existing
                : Node.configured(
                        r.name(),
                        r.hostname(),
                        r.addr(),
                        r.port(),
                        r.hardware(),
                        r.features(),
                        inventory(r.gres()),
                        1,
                        false);
        boolean ownConfig = r.dynamic() && (!r.features().isEmpty() || !r.gres().isEmpty());
        if (existing != null && ownConfig) {
            base = base.withDynamicConfig(r.features(), inventory(r.gres()));
        }
        Node node = base.withRegistration(
                r.hostname(), r.addr(), r.port(), r.hardware(), r.dynamic(), r.bootTime(), r.version(), r.facts());
        nodes.put(r.name(), node);
        usage.registered(r.name(), r.time());
        if (existing == null || (ownConfig && !existing.features().equals(node.features()))) {
            leavePartitions(r.name());
            joinPartitions(node);
        }
    }

    private static GresInventory inventory(String gres) {
        return gres.isEmpty() ? GresInventory.NONE : GresInventory.of(GresSpec.parseNodeList(gres), List.of());
    }

    private void joinPartitions(Node node) {
        partitions = PartitionMembers.join(partitions, memberships, node);
    }

    private void leavePartitions(String name) {
        partitions = PartitionMembers.leave(partitions, name);
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

    private Node requireNode(String name) {
        Node node = nodes.get(name);
        if (node == null) {
            throw new IllegalStateException("journal refers to unknown node " + name);
        }
        return node;
    }

    /**
     * {@code scontrol update PartitionName=...}: the partition of that name becomes this one.
     * Soft, as in Slurm: a restart or a reconfiguration takes slurm.conf's partitions again.
     */
    public void updatePartition(Partition changed) {
        List<Partition> out = new ArrayList<>(partitions.size());
        for (Partition p : partitions) {
            out.add(p.name().equals(changed.name()) ? changed : p);
        }
        partitions = List.copyOf(out);
    }

    /**
     * {@code scontrol reconfigure}: the configuration changed under a running controller. Nodes
     * new to slurm.conf are added; partitions are taken as now configured, dynamic nodes joining
     * them again by the new rules. Nodes removed from the file stay until a restart, as in Slurm.
     * Not journaled: like the constructor's arguments it comes from the file at every start.
     */
    public void reconfigure(
            Collection<Node> configuredNodes, List<Partition> newPartitions, List<DynamicMembership> newMemberships) {
        for (Node node : configuredNodes) {
            nodes.putIfAbsent(node.name(), node);
        }
        partitions = List.copyOf(newPartitions);
        nodesImage = null;
        memberships = List.copyOf(newMemberships);
        for (Node node : nodes.values()) {
            if (node.dynamic()) {
                joinPartitions(node);
            }
        }
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
        return partitions;
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

    /** Whether {@code --signal} was sent to this run of the job (a requeued job gets it again). */
    @Override
    public Set<String> completingOn(int jobId) {
        Completing c = completing.get(jobId);
        return c == null ? Set.of() : c.nodes();
    }

    /**
     * Soft: whether a job that ended still has processes being killed on {@code node}. Its
     * resources stay taken until no node has any left, as in Slurm: a job placed on them could
     * otherwise start beside a job that has not let go of them yet.
     */
    public void completing(int jobId, String node, boolean stillKilling) {
        Completing was = completing.get(jobId);
        Job job = jobs.get(jobId);
        if (was == null && (!stillKilling || job == null || job.allocation() == null)) {
            return;
        }
        Set<String> nodes = new TreeSet<>(was == null ? Set.of() : was.nodes());
        if (stillKilling) {
            nodes.add(node);
        } else {
            nodes.remove(node);
        }
        Allocation held = was == null ? job.allocation() : was.allocation();
        Map<Integer, Completing> next = new HashMap<>(completing);
        if (nodes.isEmpty()) {
            next.remove(jobId);
            account(held, -1, 0);
        } else {
            next.put(jobId, new Completing(held, Set.copyOf(nodes)));
            if (was == null) {
                account(held, +1, 0);
            }
        }
        completing = Map.copyOf(next);
        nodesImage = null;
    }

    /** A job's allocation, held while its processes are killed on {@code nodes}. */
    private record Completing(Allocation allocation, Set<String> nodes) {}

    @Override
    public JobReason pendingReason(Job job) {
        return ClusterImage.reasonOf(job, pendingReasons);
    }

    @Override
    public boolean warnSignalSent(Job job) {
        return warned.getOrDefault(job.id(), -1L) == job.startTime();
    }

    @Override
    public Map<Integer, JobSteps> steps() {
        return steps;
    }

    /** Soft: a job's steps changed; null forgets them (the job no longer runs them). */
    public void setSteps(int jobId, JobSteps jobSteps) {
        Map<Integer, JobSteps> changed = new HashMap<>(steps);
        if (jobSteps == null) {
            changed.remove(jobId);
        } else {
            changed.put(jobId, jobSteps);
        }
        steps = Map.copyOf(changed);
    }

    /** Soft: the node stopped answering. */
    public void silent(String node) {
        if (responding.remove(node)) {
            nodesImage = null;
        }
        // A node that stopped answering will not report its jobs' processes gone: as Slurm
        // does once a node is DOWN, its jobs stop COMPLETING.
        for (int jobId : List.copyOf(completing.keySet())) {
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
        return priorities.getOrDefault(jobId, 0L);
    }

    /** Soft: what the last scheduling pass said of the pending jobs. */
    public void setQueueView(
            Map<Integer, JobReason> reasons,
            Map<Integer, Long> starts,
            Map<Integer, Long> prio,
            Map<Integer, String> why) {
        pendingReasons = Map.copyOf(reasons);
        expectedStarts = Map.copyOf(starts);
        priorities = Map.copyOf(prio);
        details = Map.copyOf(why);
        noLongerPending.clear();
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
        if (!noLongerPending.isEmpty()) {
            Map<Integer, JobReason> still = new HashMap<>(pendingReasons);
            still.keySet().removeAll(noLongerPending);
            pendingReasons = Map.copyOf(still);
            noLongerPending.clear();
        }
        return new ClusterImage(
                sequence,
                jobsImage,
                jobsImage.byId(),
                nodesImage,
                nodesByNameImage,
                partitions,
                pendingReasons,
                expectedStarts,
                priorities,
                details,
                nextJobId,
                steps,
                completing.keySet(),
                derivedExits);
    }
}
