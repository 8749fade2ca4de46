package dev.sluice.ctld.state;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The steps of one run of a job: soft state, rebuilt by nobody after a restart (a step lives as
 * long as its srun, which reconnects to nothing either). Only their starts and ends are
 * journaled, for accounting.
 *
 * @param jobStartTime the run they belong to: a requeued job's new run has none of them
 * @param nextStepId the id the next step of this run gets
 * @param running its running steps, by step id
 */
public record JobSteps(long jobStartTime, int nextStepId, List<RunningStep> running) {
    public JobSteps {
        running = List.copyOf(running);
    }

    /** A run without steps yet. */
    public static JobSteps of(Job job) {
        return new JobSteps(job.run().startTime(), 0, List.of());
    }

    /** Whether these are the steps of the job's current run. */
    public boolean belongTo(Job job) {
        return job.isRunning() && job.run().startTime() == jobStartTime;
    }

    /** With {@code step} added, taking the next step id. */
    public JobSteps with(RunningStep step) {
        List<RunningStep> more = new ArrayList<>(running);
        more.add(step);
        return new JobSteps(jobStartTime, nextStepId + 1, more);
    }

    public JobSteps without(int stepId) {
        return new JobSteps(
                jobStartTime,
                nextStepId,
                running.stream().filter(s -> s.step().stepId() != stepId).toList());
    }

    /** With {@code step} in the place of the running step of the same id. */
    public JobSteps replacing(RunningStep step) {
        return new JobSteps(
                jobStartTime,
                nextStepId,
                running.stream()
                        .map(s -> s.step().stepId() == step.step().stepId() ? step : s)
                        .toList());
    }

    public Optional<RunningStep> find(int stepId) {
        return running.stream().filter(s -> s.step().stepId() == stepId).findFirst();
    }
}
