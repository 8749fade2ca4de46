package dev.sluice.ctld.control;

import static dev.sluice.ctld.Builders.aJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.ControlHarness;
import dev.sluice.ctld.sched.Scheduler;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobChange;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Cancelling array tasks by the names users type: 7, 7_1, 7_[0-2]. */
class TestJobControlArrays {
    private final JobControl jobs =
            JobControl.builder(Scheduler.SelectDefaults.DEFAULT).build();
    private final Caller owner = Caller.of(1000, 1000, "user1000");
    private ClusterState state;
    private final ControlHarness harness = new ControlHarness();

    private int submitArray(String spec) {
        state = ClusterFixture.aCluster().firstJobId(7).configured();
        ControlResult<Integer> r = jobs.submit(state, aJob().array(spec).build(), 100);
        harness.replayRecords(state, r);
        return r.response();
    }

    @Test
    void cancelledPendingTasksLeaveTheRecordAndTheLastCancelsIt() {
        int array = submitArray("0-3");
        harness.replayRecords(state, jobs.signal(state, owner, array + "_[0-1]", 0, true, false, 200));
        // As Slurm 22.05: no record and no job id for a task cancelled before it started.
        assertThat(state.job(8)).isNull();
        assertThat(state.job(array).displayId()).isEqualTo("7_[2-3]");
        assertThat(state.nextJobId()).isEqualTo(8);
        harness.replayRecords(state, jobs.signal(state, owner, array + "_[2-3]", 0, true, false, 300));
        assertThat(state.job(8)).isNull();
        assertThat(state.job(array).displayId()).isEqualTo("7_3");
        assertThat(state.job(array).status().state()).isEqualTo(JobState.CANCELLED);
        assertThat(state.nextJobId()).isEqualTo(8);
    }

    @Test
    void anAftercorrArraySplitsIntoOneRecordPerTaskAtSubmission() {
        // Real Slurm 22.05 lists such an array's pending tasks one a line and keeps a record per
        // task (compat 295); the last task keeps the array's id, as when tasks start.
        int target = submitArray("0-2");
        ControlResult<Integer> r = jobs.submit(
                state,
                aJob().array("0-2").dependency("aftercorr:" + target, false).build(),
                100);
        harness.replayRecords(state, r);
        int array = r.response();
        assertThat(array).isEqualTo(8);
        assertThat(state.job(9).displayId()).isEqualTo("8_0");
        assertThat(state.job(10).displayId()).isEqualTo("8_1");
        assertThat(state.job(array).displayId()).isEqualTo("8_2");
        assertThat(state.nextJobId()).isEqualTo(11);
        // Any other array stays one record.
        assertThat(state.job(target).displayId()).isEqualTo("7_[0-2]");
    }

    @Test
    void releasingOneHeldTaskSplitsItOffAndLeavesTheOthersHeld() {
        int array = submitArray("1-4");
        harness.replayRecords(state, jobs.hold(state, owner, Integer.toString(array), Job.Hold.USER, 150));
        harness.replayRecords(state, jobs.hold(state, owner, array + "_3", Job.Hold.NONE, 200));
        assertThat(state.job(8).displayId()).isEqualTo("7_3");
        assertThat(state.job(8).terms().hold()).isEqualTo(Job.Hold.NONE);
        assertThat(state.job(array).displayId()).isEqualTo("7_[1-2,4]");
        assertThat(state.job(array).terms().hold()).isEqualTo(Job.Hold.USER);
    }

    @Test
    void aWholeArrayUpdateAnswersPerGroupOfTasks() {
        int array = submitArray("0-5%2");
        // Task 0 gets a record of its own (held alone), which then ends.
        harness.replayRecords(state, jobs.hold(state, owner, array + "_0", Job.Hold.USER, 150));
        harness.replayRecords(state, jobs.signal(state, owner, array + "_0", 0, true, false, 160));
        ControlResult<List<JobUpdate.TaskOutcome>> r =
                JobUpdate.update(state, owner, Integer.toString(array), List.of(new JobChange.ArrayThrottle(3)), 200);
        harness.replayRecords(state, r);
        assertThat(state.job(array).displayId()).isEqualTo("7_[1-5%3]");
        assertThat(r.response())
                .extracting(o -> o.tasks().format() + " " + o.code())
                .containsExactly("0 JOB_FINISHED", "1-5 SUCCESS");
        // One task of it named: an answer for the whole request, as before.
        assertThat(JobUpdate.update(state, owner, array + "_2", List.of(new JobChange.ArrayThrottle(1)), 210)
                        .response())
                .isNull();
    }

    @Test
    void theArrayIdCancelsEveryTask() {
        int array = submitArray("0-3%2");
        harness.replayRecords(state, jobs.signal(state, owner, Integer.toString(array), 0, true, false, 200));
        assertThat(state.job(array).status().state()).isEqualTo(JobState.CANCELLED);
    }

    @Test
    void unknownTasksAndOtherUsersAreRefused() {
        int array = submitArray("0-1");
        assertThatThrownBy(() -> jobs.signal(state, owner, array + "_5", 0, true, false, 200))
                .isInstanceOf(SlurmException.class)
                .extracting(e -> ((SlurmException) e).code())
                .isEqualTo(ErrorCode.INVALID_JOB_ID);
        assertThatThrownBy(() -> jobs.signal(state, Caller.of(2000, 2000, "other"), array + "_0", 0, true, false, 200))
                .isInstanceOf(SlurmException.class)
                .extracting(e -> ((SlurmException) e).code())
                .isEqualTo(ErrorCode.ACCESS_DENIED);
    }

    @Test
    void aBadArraySpecificationIsRefusedAtSubmission() {
        submitArray("0-1");
        assertThatThrownBy(() -> jobs.submit(state, aJob().array("5-2").build(), 100))
                .isInstanceOf(SlurmException.class)
                .hasMessage("Invalid job array specification");
        assertThatThrownBy(() -> jobs.submit(
                        state, aJob().dependency("afterok:oops", false).build(), 100))
                .isInstanceOf(SlurmException.class)
                .hasMessage("Job dependency problem");
    }

    @Test
    void aDependencyOnAJobTheControllerDoesNotKnowIsAccepted() {
        // Real Slurm 22.05 accepts afterok:<unknown id>: that job ended and was forgotten.
        submitArray("0-1");
        assertThat(jobs.submit(state, aJob().dependency("afterok:999", false).build(), 100)
                        .records())
                .hasSize(1);
    }
}
