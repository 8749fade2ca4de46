package dev.sluice.ctld.sched;

import dev.sluice.ctld.select.NodeCapacity;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobRequest;
import java.util.List;
import java.util.Map;

/**
 * Jobs suspended by preemption ({@code PreemptMode=SUSPEND,GANG}), as the scheduler sees them.
 * Such a job lends its cores, CPUs and devices to its preemptor, which holds them on the nodes;
 * it gets them back, the very same ones, when they are free again, as Slurm's gang scheduler
 * resumes a suspended job once no job of a higher tier uses its resources.
 */
final class SuspendedJobs {
    /** A suspended job keeps its resources from other jobs with no end in sight. */
    static final long KEPT_UNTIL = Long.MAX_VALUE;

    private SuspendedJobs() {}

    /**
     * At the start of a pass, the jobs suspended by preemption ({@code lent}, in queue order):
     * one whose resources are all free again resumes (into {@code resumes}, its resources taken
     * in the timeline); the others keep theirs from every job but their preemptors, which
     * already hold them, until they resume.
     */
    static void resumeOrKeep(List<Job> lent, AvailabilityTimeline timeline, long now, List<Integer> resumes) {
        for (Job job : lent) {
            long end = endAfterResume(job, now);
            if (free(job.allocation(), timeline.capacityFor(now, now + 1))) {
                resumes.add(job.id());
                timeline.started(job.allocation(), end);
            } else {
                timeline.reserve(job.allocation(), now, KEPT_UNTIL);
            }
        }
    }

    /** When a job resumed now ends: its time limit counts run time only. */
    static long endAfterResume(Job job, long now) {
        return job.terms().timeLimitMinutes() >= JobRequest.TIME_NOT_SET
                ? Long.MAX_VALUE
                : Math.max(now + 1, now + job.terms().timeLimitMinutes() * 60 - job.runSeconds(now));
    }

    /**
     * Whether every share of {@code allocation} is free in {@code capacity}: its node is up, its
     * cores and devices are held by no job, its CPU and memory counts fit.
     */
    static boolean free(Allocation allocation, Map<String, NodeCapacity> capacity) {
        for (Allocation.NodeShare share : allocation.nodes()) {
            NodeCapacity node = capacity.get(share.node());
            if (node == null
                    || node.freeCpus() < share.cpus()
                    || node.freeMemoryMb() < share.memoryMb()
                    || !node.gres().canTake(share.gres())) {
                return false;
            }
            for (int core : share.cores()) {
                if (node.busyCores().contains(core)) {
                    return false;
                }
            }
        }
        return true;
    }
}
