package dev.sluice.ctld.state;

import dev.sluice.common.slurm.JobState;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * What the controller keeps of job steps: the soft steps of running jobs (reported by the
 * nodes, rebuilt after a restart) and, durable from the journal's step records, each job's
 * highest step exit status (DerivedExitCode). Kept apart from {@link ClusterState} because
 * steps change on their own path (StepService) and never move a job. Both maps are immutable
 * and replaced on change, so images share them.
 */
final class StepTable {
    private Map<Integer, JobSteps> steps = Map.of();
    private Map<Integer, Integer> derivedExits = Map.of();

    Map<Integer, JobSteps> steps() {
        return steps;
    }

    /** A job's steps changed; null forgets them (the job no longer runs them). */
    void set(int jobId, JobSteps jobSteps) {
        Map<Integer, JobSteps> changed = new HashMap<>(steps);
        if (jobSteps == null) {
            changed.remove(jobId);
        } else {
            changed.put(jobId, jobSteps);
        }
        steps = Map.copyOf(changed);
    }

    Map<Integer, Integer> derivedExits() {
        return derivedExits;
    }

    int derivedExit(int jobId) {
        return derivedExits.getOrDefault(jobId, 0);
    }

    /**
     * An ended step raises its job's DerivedExitCode to its own status if that is higher. The
     * job may even be purged by the time the record replays: then nothing changes.
     */
    void recorded(int jobId, JobStep step, boolean jobKnown) {
        if (step.state() == JobState.RUNNING || !jobKnown || step.exitStatus() <= derivedExit(jobId)) {
            return;
        }
        Map<Integer, Integer> changed = new HashMap<>(derivedExits);
        changed.put(jobId, step.exitStatus());
        derivedExits = Map.copyOf(changed);
    }

    void purged(Collection<Integer> jobIds) {
        if (jobIds.stream().anyMatch(derivedExits::containsKey)) {
            Map<Integer, Integer> left = new HashMap<>(derivedExits);
            jobIds.forEach(left::remove);
            derivedExits = Map.copyOf(left);
        }
    }
}
