package dev.sluice.ctld.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.Builders;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.ControlHarness;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.StateRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Job steps decided by the loop: placed, recorded once when they start and once when they end. */
class TestStepCommands {
    private static final Caller ALICE = Caller.of(1000, 1000, "alice");
    private static final Allocation TWO_CPUS = new Allocation(List.of(Allocation.NodeShare.of("n1", 2, 0, 2)));

    private final ControlHarness harness = new ControlHarness();
    private final ClusterState state = running();

    private ClusterState running() {
        ClusterState s = ClusterFixture.aCluster().configured();
        harness.replay(
                s, new StateRecord.JobSubmitted(1, Builders.aJob().requeue().build(), "p", 60, 100));
        harness.replay(s, new StateRecord.JobStarted(1, TWO_CPUS, "p", 60, 101));
        return s;
    }

    private static StepCommands.Wanted step(int tasks, boolean exclusive) {
        return new StepCommands.Wanted(
                1, StepControl.StepRequest.anywhere(tasks, 0, 0, "", exclusive), "sleep", "login1", 42);
    }

    @Test
    void aStepIsPlacedRecordedAndReleased() {
        ControlResult<StepCommands.Placed> created = StepCommands.create(state, ALICE, step(2, true), 110);
        assertThat(created.records()).singleElement().isInstanceOfSatisfying(StateRecord.StepRecorded.class, r -> {
            assertThat(r.step().state()).isEqualTo(JobState.RUNNING);
            assertThat(r.step().tres()).isEqualTo("cpu=2,mem=0,node=1");
        });
        StepCommands.Placed placed = harness.apply(state, created);
        assertThat(placed.stepId()).isZero();
        assertThat(placed.nodeList()).isEqualTo("n1");
        // The job's two CPUs are held by the exclusive step: another must wait.
        assertThatThrownBy(() -> StepCommands.create(state, ALICE, step(1, true), 111))
                .isInstanceOf(SlurmException.class)
                .extracting(e -> ((SlurmException) e).code())
                .isEqualTo(ErrorCode.NODES_BUSY);
        ControlResult<Void> done = StepCommands.complete(state, ALICE, 1, 0, 0, 120);
        assertThat(done.records())
                .singleElement()
                .isInstanceOfSatisfying(
                        StateRecord.StepRecorded.class,
                        r -> assertThat(r.step().state()).isEqualTo(JobState.COMPLETED));
        harness.apply(state, done);
        assertThat(state.steps().get(1).running()).isEmpty();
        assertThat(harness.apply(state, StepCommands.create(state, ALICE, step(1, true), 121))
                        .stepId())
                .isEqualTo(1);
        // A second report of the same end changes nothing.
        assertThat(StepCommands.complete(state, ALICE, 1, 0, 0, 122).records()).isEmpty();
    }

    @Test
    void onlyItsOwnerOrAnOperatorStartsSteps() {
        assertThatThrownBy(() -> StepCommands.create(state, Caller.of(1001, 1001, "bob"), step(1, false), 110))
                .isInstanceOf(SlurmException.class)
                .extracting(e -> ((SlurmException) e).code())
                .isEqualTo(ErrorCode.ACCESS_DENIED);
    }

    /** A requeued job's old steps end with its old run; its new run numbers steps from 0. */
    @Test
    void stepsEndWithTheirRun() {
        harness.apply(state, StepCommands.create(state, ALICE, step(1, false), 110));
        harness.apply(state, ControlResult.of(List.of(StateRecord.JobRequeued.at(1, 120)), List.of(), null));
        ControlResult<Void> swept = StepCommands.sweep(state, 121);
        assertThat(swept.records()).singleElement().isInstanceOfSatisfying(StateRecord.StepRecorded.class, r -> {
            assertThat(r.step().state()).isEqualTo(JobState.CANCELLED);
            assertThat(r.step().endTime()).isEqualTo(121);
        });
        harness.apply(state, swept);
        assertThat(state.steps()).isEmpty();
        assertThat(StepCommands.sweep(state, 122).records()).isEmpty();
        harness.apply(
                state,
                ControlResult.of(List.of(new StateRecord.JobStarted(1, TWO_CPUS, "p", 60, 130)), List.of(), null));
        assertThat(harness.apply(state, StepCommands.create(state, ALICE, step(1, false), 131))
                        .stepId())
                .isZero();
    }

    /** scancel J.S: the step's nodes kill its tasks; it ends CANCELLED however they exit. */
    @Test
    void aCancelledStepEndsCancelled() {
        harness.apply(state, StepCommands.create(state, ALICE, step(1, false), 110));
        harness.apply(state, StepCommands.create(state, ALICE, step(1, false), 111));
        ControlResult<Void> cancelled = StepCommands.signal(state, ALICE, "1", "1", 9, true);
        assertThat(cancelled.records()).isEmpty();
        assertThat(cancelled.effects())
                .containsExactly(new dev.sluice.ctld.state.Effect.SignalStep(1, 1, List.of("n1"), 9, true));
        harness.apply(state, cancelled);
        ControlResult<Void> ended = StepCommands.complete(state, ALICE, 1, 1, 9, 120);
        assertThat(ended.records()).singleElement().isInstanceOfSatisfying(StateRecord.StepRecorded.class, r -> {
            assertThat(r.step().state()).isEqualTo(JobState.CANCELLED);
            assertThat(r.step().exitStatus()).isEqualTo(9);
        });
        harness.apply(state, ended);
        // Step 0 was not touched: its failure is its own.
        assertThat(StepCommands.complete(state, ALICE, 1, 0, 1 << 8, 121).records())
                .singleElement()
                .isInstanceOfSatisfying(
                        StateRecord.StepRecorded.class,
                        r -> assertThat(r.step().state()).isEqualTo(JobState.FAILED));
    }

    /** Another signal only reaches the tasks; a step that is gone, or another's, is Slurm's error. */
    @Test
    void signalsReachOneStepOfYourOwnThatRuns() {
        harness.apply(state, StepCommands.create(state, ALICE, step(1, false), 110));
        ControlResult<Void> usr1 = StepCommands.signal(state, ALICE, "1", "0", 10, false);
        assertThat(usr1.softChanges()).isEmpty();
        assertThat(usr1.effects())
                .containsExactly(new dev.sluice.ctld.state.Effect.SignalStep(1, 0, List.of("n1"), 10, false));
        assertThatThrownBy(() -> StepCommands.signal(state, ALICE, "1", "5", 9, true))
                .extracting(e -> ((SlurmException) e).code())
                .isEqualTo(ErrorCode.INVALID_JOB_ID);
        assertThatThrownBy(() -> StepCommands.signal(state, Caller.of(1001, 1001, "bob"), "1", "0", 9, true))
                .extracting(e -> ((SlurmException) e).code())
                .isEqualTo(ErrorCode.ACCESS_DENIED);
        assertThatThrownBy(() -> StepCommands.signal(state, ALICE, "1", "x", 9, true))
                .extracting(e -> ((SlurmException) e).code())
                .isEqualTo(ErrorCode.INVALID_JOB_ID);
    }
}
