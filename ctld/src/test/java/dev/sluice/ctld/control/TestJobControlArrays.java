package dev.sluice.ctld.control;

import static dev.sluice.ctld.Builders.aJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.Builders;
import dev.sluice.ctld.gres.GresInventory;
import dev.sluice.ctld.sched.Scheduler;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.Node;
import dev.sluice.ctld.state.NodeHardware;
import dev.sluice.ctld.state.StateRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Cancelling array tasks by the names users type: 7, 7_1, 7_[0-2]. */
class TestJobControlArrays {
    private final JobControl jobs = new JobControl(new Scheduler.SelectDefaults(false, 0));
    private final Caller owner = new Caller(1000, 1000, "user1000");
    private ClusterState state;
    private long seq;

    private int submitArray(String spec) {
        state = new ClusterState(
                List.of(Node.configured(
                        "n1",
                        "n1",
                        "127.0.0.1",
                        0,
                        NodeHardware.ofCpus(4, 1000),
                        List.of(),
                        GresInventory.NONE,
                        1,
                        false)),
                List.of(Builders.aPartition("p", List.of("n1"))),
                7);
        ControlResult<Integer> r = jobs.submit(state, aJob().array(spec).build(), 100);
        apply(r);
        return r.response();
    }

    private void apply(ControlResult<?> r) {
        for (StateRecord record : r.records()) {
            state.replay(++seq, record);
        }
    }

    @Test
    void cancellingPendingTasksSplitsThemOffAndTheLastKeepsTheArrayId() {
        int array = submitArray("0-3");
        apply(jobs.signal(state, owner, array + "_[0-1]", 0, true, false, 200));
        assertThat(state.job(8).displayId()).isEqualTo("7_0");
        assertThat(state.job(8).state()).isEqualTo(JobState.CANCELLED);
        assertThat(state.job(9).displayId()).isEqualTo("7_1");
        assertThat(state.job(array).displayId()).isEqualTo("7_[2-3]");
        apply(jobs.signal(state, owner, array + "_[2-3]", 0, true, false, 300));
        assertThat(state.job(10).displayId()).isEqualTo("7_2");
        assertThat(state.job(array).displayId()).isEqualTo("7_3");
        assertThat(state.job(array).state()).isEqualTo(JobState.CANCELLED);
        assertThat(state.nextJobId()).isEqualTo(11);
    }

    @Test
    void theArrayIdCancelsEveryTask() {
        int array = submitArray("0-3%2");
        apply(jobs.signal(state, owner, Integer.toString(array), 0, true, false, 200));
        assertThat(state.job(array).state()).isEqualTo(JobState.CANCELLED);
    }

    @Test
    void unknownTasksAndOtherUsersAreRefused() {
        int array = submitArray("0-1");
        assertThatThrownBy(() -> jobs.signal(state, owner, array + "_5", 0, true, false, 200))
                .isInstanceOf(SlurmException.class)
                .extracting(e -> ((SlurmException) e).code())
                .isEqualTo(ErrorCode.INVALID_JOB_ID);
        assertThatThrownBy(() -> jobs.signal(state, new Caller(2000, 2000, "other"), array + "_0", 0, true, false, 200))
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
