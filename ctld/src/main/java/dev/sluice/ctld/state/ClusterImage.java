package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.hostlist.HostList;
import dev.sluice.common.slurm.JobReason;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * An immutable, consistent view of the whole cluster at one journal sequence. Published by
 * the controller loop after each batch of changes; RPC readers and the scheduler take it
 * without locks, so a burst of {@code squeue} never stalls the loop. Its parts: the state's
 * tables, what the last scheduling pass found of the queue, and the running jobs' soft state;
 * the accessors below read their fields directly.
 */
public record ClusterImage(long sequence, int nextJobId, Tables tables, QueueFacts queue, RunFacts runs) {

    /** The jobs, nodes, partitions and reservations, each also by key where they are looked up. */
    public record Tables(
            List<Job> jobs,
            Map<Integer, Job> jobsById,
            List<NodeView> nodes,
            Map<String, NodeView> nodesByName,
            List<Partition> partitions,
            Reservations reservations) {
        public Tables {
            requireNonNull(reservations, "reservations is null");
            // The controller's own tables are immutable already and share chunks between images.
            if (!JobTable.Frozen.is(jobs)) {
                jobs = List.copyOf(jobs);
            }
            if (!JobTable.Frozen.isById(jobsById)) {
                jobsById = Map.copyOf(jobsById);
            }
            nodes = List.copyOf(nodes);
            nodesByName = Map.copyOf(nodesByName);
            partitions = List.copyOf(partitions);
        }

        /** The same tables with other jobs. */
        public Tables withJobs(List<Job> newJobs, Map<Integer, Job> newById) {
            return new Tables(newJobs, newById, nodes, nodesByName, partitions, reservations);
        }
    }

    /**
     * What the last scheduling pass found, by job id: why pending jobs wait (and the detail
     * shown with it), when they are expected to start and on which nodes (the place backfill
     * reserved them, {@code planned}), and their priorities. One value from the pass to the
     * images: soft state, never journaled.
     */
    public record QueueFacts(
            Map<Integer, JobReason> pendingReasons,
            Map<Integer, Long> expectedStarts,
            Map<Integer, Long> priorities,
            Map<Integer, String> reasonDetails,
            Map<Integer, Allocation> planned) {
        public static final QueueFacts NONE = new QueueFacts(Map.of(), Map.of(), Map.of(), Map.of(), Map.of());

        public QueueFacts {
            pendingReasons = Map.copyOf(pendingReasons);
            expectedStarts = Map.copyOf(expectedStarts);
            priorities = dev.sluice.ctld.queue.BasicPriorities.immutable(priorities);
            reasonDetails = Map.copyOf(reasonDetails);
            planned = Map.copyOf(planned);
        }

        public QueueFacts withPriorities(Map<Integer, Long> v) {
            return new QueueFacts(pendingReasons, expectedStarts, v, reasonDetails, planned);
        }

        /** The same facts with these reasons (the jobs no longer pending left out). */
        public QueueFacts withPendingReasons(Map<Integer, JobReason> v) {
            return new QueueFacts(v, expectedStarts, priorities, reasonDetails, planned);
        }
    }

    /**
     * The running (and ending) jobs' soft state: their steps, which still have processes being
     * killed, their steps' highest exit, which are in a preemption's grace time, and which wait
     * for their allocation Prolog (reason {@code Prolog}) on which nodes, and of those which had
     * their script's end reported (COMPLETING meanwhile).
     */
    public record RunFacts(
            Map<Integer, JobSteps> steps,
            Set<Integer> completing,
            Map<Integer, Integer> derivedExits,
            Set<Integer> preempting,
            Map<Integer, Set<String>> prologWaits,
            Set<Integer> endsAwaitingProlog) {
        public static final RunFacts NONE = new RunFacts(Map.of(), Set.of(), Map.of(), Set.of(), Map.of(), Set.of());

        public RunFacts {
            steps = Map.copyOf(steps);
            completing = Set.copyOf(completing);
            derivedExits = Map.copyOf(derivedExits);
            preempting = Set.copyOf(preempting);
            prologWaits = Map.copyOf(prologWaits);
            endsAwaitingProlog = Set.copyOf(endsAwaitingProlog);
        }
    }

    public ClusterImage {
        requireNonNull(tables, "tables is null");
        requireNonNull(queue, "queue is null");
        requireNonNull(runs, "runs is null");
    }

    public List<Job> jobs() {
        return tables.jobs();
    }

    /**
     * The jobs holding resources ({@link Job#isRunning}: running or suspended), in id order, as
     * {@link #jobs} lists them: kept apart by the controller, so a scheduling pass need not walk
     * the finished jobs kept for {@code MinJobAge} and the queue to find them.
     */
    public List<Job> runningJobs() {
        return JobTable.Frozen.running(tables.jobs());
    }

    /**
     * The pending jobs, in id order, held ones included: kept apart like {@link #runningJobs},
     * so a pass reads the queue without walking the finished jobs.
     */
    public List<Job> pendingJobs() {
        return JobTable.Frozen.pending(tables.jobs());
    }

    public Map<Integer, Job> jobsById() {
        return tables.jobsById();
    }

    public List<NodeView> nodes() {
        return tables.nodes();
    }

    public Map<String, NodeView> nodesByName() {
        return tables.nodesByName();
    }

    public List<Partition> partitions() {
        return tables.partitions();
    }

    public Reservations reservations() {
        return tables.reservations();
    }

    public Map<Integer, JobReason> pendingReasons() {
        return queue.pendingReasons();
    }

    public Map<Integer, Long> expectedStarts() {
        return queue.expectedStarts();
    }

    public Map<Integer, Long> priorities() {
        return queue.priorities();
    }

    public Map<Integer, String> reasonDetails() {
        return queue.reasonDetails();
    }

    /** The nodes the scheduler planned for a pending job (squeue's SCHEDNODES); empty for none. */
    public String schedNodes(int jobId) {
        // Compressed here, when squeue asks, rather than for every planned job on every pass.
        Allocation planned = queue.planned().get(jobId);
        return planned == null
                ? ""
                : HostList.compress(
                        planned.nodes().stream().map(Allocation.NodeShare::node).toList());
    }

    public Map<Integer, JobSteps> steps() {
        return runs.steps();
    }

    public Set<Integer> completing() {
        return runs.completing();
    }

    public Map<Integer, Integer> derivedExits() {
        return runs.derivedExits();
    }

    public Set<Integer> preempting() {
        return runs.preempting();
    }

    /**
     * Whether the job was preempted and is in its {@code GraceTime}: signalled, still running
     * until it is killed. It is not preempted again, and nothing more is preempted meanwhile.
     */
    public boolean isPreempting(Job job) {
        return runs.preempting().contains(job.id());
    }

    /**
     * scontrol show job -d's DerivedExitCode: the highest wait status among the job's ended
     * steps (the batch script's own is its ExitCode), 0 when none ended.
     */
    public int derivedExit(Job job) {
        return runs.derivedExits().getOrDefault(job.id(), 0);
    }

    /** Whether the running job waits for its allocation Prolog (reason {@code Prolog}). */
    public boolean waitsForProlog(Job job) {
        return !prologRunsOn(job).isEmpty();
    }

    /** The node whose allocation Prolog failed and so ended the job, an allocation; empty if none did. */
    public java.util.Optional<String> prologFailedOn(Job job) {
        String node = job.status().prologFailedNode();
        return node.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(node);
    }

    /** The nodes whose allocation Prolog the running job still waits for. */
    public Set<String> prologRunsOn(Job job) {
        return job.isRunning() ? runs.prologWaits().getOrDefault(job.id(), Set.of()) : Set.of();
    }

    /**
     * Whether the job shows COMPLETING: it ended and still has processes being killed on some
     * node, or its script ended and the end waits for other nodes' allocation Prologs.
     */
    public boolean isCompleting(Job job) {
        // Only runs that still wait are in endsAwaitingProlog (PrologWaits.endsReported).
        return runs.completing().contains(job.id()) || runs.endsAwaitingProlog().contains(job.id());
    }

    /** An image that holds one job and nothing else (to describe that job on its own). */
    public static ClusterImage ofJob(Job job) {
        return new ClusterImage(
                0,
                0,
                new Tables(List.of(job), Map.of(job.id(), job), List.of(), Map.of(), List.of(), Reservations.NONE),
                QueueFacts.NONE,
                RunFacts.NONE);
    }

    public Optional<Job> job(int id) {
        return Optional.ofNullable(tables.jobsById().get(id));
    }

    public Optional<NodeView> node(String name) {
        return Optional.ofNullable(tables.nodesByName().get(name));
    }

    public Optional<Partition> partition(String name) {
        requireNonNull(name, "name is null");
        // A loop, not a stream: priorities and the scheduler ask this once per pending job per
        // pass, and a deep queue of submissions made the stream set-up a tenth of the loop's time.
        for (Partition p : tables.partitions()) {
            if (p.name().equals(name)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    public Optional<Partition> defaultPartition() {
        return tables.partitions().stream().filter(Partition::isDefault).findFirst();
    }

    /** The reason a pending job waits, as squeue prints it. */
    public String reasonOf(Job job) {
        return reason(job).slurmName();
    }

    /**
     * A job's reason as the listings show it: {@link #reasonOf(Job, Map)} with the last pass's
     * view; {@code Prolog} while a running job waits for its allocation Prolog.
     */
    public JobReason reason(Job job) {
        if (waitsForProlog(job)) {
            return JobReason.PROLOG;
        }
        return reasonOf(job, queue.pendingReasons());
    }

    /** A job's reason: a pending job's hold, or what the scheduler last found in {@code waiting}. */
    static JobReason reasonOf(Job job, Map<Integer, JobReason> waiting) {
        if (job.isPending() && job.terms().hold() == Job.Hold.NONE) {
            return waiting.getOrDefault(job.id(), job.status().reason());
        }
        return job.standingReason();
    }
}
