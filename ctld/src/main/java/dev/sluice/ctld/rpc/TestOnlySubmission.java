package dev.sluice.ctld.rpc;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.hostlist.HostList;
import dev.sluice.ctld.control.JobControl;
import dev.sluice.ctld.loop.ControllerLoop;
import dev.sluice.ctld.loop.LoopAnswers;
import dev.sluice.ctld.sched.SchedulerConfig;
import dev.sluice.ctld.sched.WillRun;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.protocol.v1.SubmitBatchJobResponse;

/**
 * {@code sbatch --test-only}: the submission is checked on the controller's thread (which also
 * uses up a job id, as Slurm does), then the scheduler's pass that places it runs here, on the
 * caller's thread, over the published image: nothing is journaled and the loop is not held up.
 */
final class TestOnlySubmission {
    private TestOnlySubmission() {}

    static SubmitBatchJobResponse answer(
            ControllerLoop loop, JobControl jobs, SchedulerConfig scheduler, JobRequest request) {
        JobControl.TestOnly checked =
                LoopAnswers.await(loop.submit((state, now) -> jobs.testOnly(state, request, now)));
        if (checked.refusal() != null) {
            throw checked.refusal();
        }
        StateRecord.JobSubmitted s = checked.job();
        // An array is placed as one job: where its first task would start.
        Job candidate = Job.submitted(s.jobId(), s.request(), s.partition(), s.timeLimitMinutes(), s.time());
        WillRun.Estimate estimate = WillRun.estimate(scheduler, loop.image(), candidate, s.time())
                // Nothing within the backfill window: the resources it needs stay busy that long.
                .orElseThrow(() -> new SlurmException(ErrorCode.NODES_BUSY));
        return SubmitBatchJobResponse.newBuilder()
                .setJobId(s.jobId())
                .setStartTime(estimate.startTime())
                .setCpus(estimate.allocation().totalCpus())
                .setNodeList(HostList.compress(estimate.allocation().nodeNames()))
                .setPartition(estimate.partition())
                .build();
    }
}
