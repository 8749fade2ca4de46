package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.slurm.JobReason;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An immutable, consistent view of the whole cluster at one journal sequence. Published by
 * the controller loop after each batch of changes; RPC readers and the scheduler take it
 * without locks, so a burst of {@code squeue} never stalls the loop.
 */
public record ClusterImage(
        long sequence,
        List<Job> jobs,
        Map<Integer, Job> jobsById,
        List<NodeView> nodes,
        Map<String, NodeView> nodesByName,
        List<Partition> partitions,
        Map<Integer, JobReason> pendingReasons,
        Map<Integer, Long> expectedStarts,
        Map<Integer, Long> priorities,
        Map<Integer, String> reasonDetails,
        int nextJobId,
        Map<Integer, JobSteps> steps,
        java.util.Set<Integer> completing,
        Map<Integer, Integer> derivedExits,
        Reservations reservations,
        java.util.Set<Integer> preempting) {

    public ClusterImage {
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
        pendingReasons = Map.copyOf(pendingReasons);
        expectedStarts = Map.copyOf(expectedStarts);
        priorities = dev.sluice.ctld.queue.BasicPriorities.immutable(priorities);
        reasonDetails = Map.copyOf(reasonDetails);
        steps = Map.copyOf(steps);
        completing = java.util.Set.copyOf(completing);
        derivedExits = Map.copyOf(derivedExits);
        preempting = java.util.Set.copyOf(preempting);
    }

    /**
     * Whether the job was preempted and is in its {@code GraceTime}: signalled, still running
     * until it is killed. It is not preempted again, and nothing more is preempted meanwhile.
     */
    public boolean isPreempting(Job job) {
        return preempting.contains(job.id());
    }

    /**
     * scontrol show job -d's DerivedExitCode: the highest wait status among the job's ended
     * steps (the batch script's own is its ExitCode), 0 when none ended.
     */
    public int derivedExit(Job job) {
        return derivedExits.getOrDefault(job.id(), 0);
    }

    /** Whether a job that ended still has processes being killed on some node (COMPLETING). */
    public boolean isCompleting(Job job) {
        return completing.contains(job.id());
    }

    /** An image that holds one job and nothing else (to describe that job on its own). */
    public static ClusterImage ofJob(Job job) {
        return new ClusterImage(
                0,
                List.of(job),
                Map.of(job.id(), job),
                List.of(),
                Map.of(),
                List.of(),
                Map.of(),
                Map.of(),
                Map.of(),
                Map.of(),
                0,
                Map.of(),
                java.util.Set.of(),
                Map.of(),
                Reservations.NONE,
                java.util.Set.of());
    }

    public Optional<Job> job(int id) {
        return Optional.ofNullable(jobsById.get(id));
    }

    public Optional<NodeView> node(String name) {
        return Optional.ofNullable(nodesByName.get(name));
    }

    public Optional<Partition> partition(String name) {
        requireNonNull(name, "name is null");
        // A loop, not a stream: priorities and the scheduler ask this once per pending job per
        // pass, and a deep queue of submissions made the stream set-up a tenth of the loop's time.
        for (Partition p : partitions) {
            if (p.name().equals(name)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    public Optional<Partition> defaultPartition() {
        return partitions.stream().filter(Partition::isDefault).findFirst();
    }

    /** The reason a pending job waits, as squeue prints it. */
    public String reasonOf(Job job) {
        return reason(job).slurmName();
    }

    /** A job's reason as the listings show it: {@link #reasonOf(Job, Map)} with the last pass's view. */
    public JobReason reason(Job job) {
        return reasonOf(job, pendingReasons);
    }

    /** A job's reason: a pending job's hold, or what the scheduler last found in {@code waiting}. */
    static JobReason reasonOf(Job job, Map<Integer, JobReason> waiting) {
        if (job.isPending() && job.hold() == Job.Hold.NONE) {
            return waiting.getOrDefault(job.id(), job.reason());
        }
        return job.standingReason();
    }
}
