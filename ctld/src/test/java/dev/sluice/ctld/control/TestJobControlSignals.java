package dev.sluice.ctld.control;

import static dev.sluice.ctld.Builders.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.control.JobControl.SignalScope;
import dev.sluice.ctld.sched.Scheduler;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.Effect;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.StateRecord;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code scancel}: which processes a signal reaches (scancel(1): by default only the job's steps,
 * {@code -b} the batch shell, {@code -f} everything), SIGKILL as a cancel, and the reason a job
 * cancelled while it waited keeps (as recorded from Slurm 22.05).
 */
class TestJobControlSignals {
    private static final long NOW = 1_000_000;
    private static final Caller OWNER = Caller.of(1000, 1000, "user1000");
    private static final int USR1 = 10;

    private final JobControl jobs =
            JobControl.builder(Scheduler.SelectDefaults.DEFAULT).build();
    private final ClusterState state = ClusterFixture.aCluster().configured();
    private long seq;

    private int job(JobRequest request, boolean running) {
        int id = state.nextJobId();
        state.replay(++seq, new StateRecord.JobSubmitted(id, request, "p", 10, NOW - 1000));
        if (running) {
            state.replay(
                    ++seq,
                    new StateRecord.JobStarted(
                            id, new Allocation(List.of(Allocation.NodeShare.of("n1", 2, 0, 1))), "p", 10, NOW - 10));
        }
        return id;
    }

    private ControlResult<Void> signal(int id, int signal, SignalScope scope) {
        ControlResult<Void> r = jobs.signal(state, OWNER, Integer.toString(id), signal, false, scope, NOW);
        r.records().forEach(record -> state.replay(++seq, record));
        return r;
    }

    @Test
    void aSignalReachesTheStepsUnlessBatchOrFullIsAsked() {
        int id = job(aJob().build(), true);
        assertThat(signal(id, USR1, SignalScope.STEPS).effects())
                .containsExactly(new Effect.Signal(id, List.of("n1"), USR1, false, true));
        assertThat(signal(id, USR1, SignalScope.BATCH).effects())
                .containsExactly(new Effect.Signal(id, List.of("n1"), USR1, true, false));
        assertThat(signal(id, USR1, SignalScope.FULL).effects())
                .containsExactly(new Effect.Signal(id, List.of("n1"), USR1, false, false));
        assertThat(state.job(id).status().state()).isEqualTo(JobState.RUNNING);
    }

    @Test
    void sigkillToTheWholeJobCancelsIt() {
        int id = job(aJob().build(), true);
        ControlResult<Void> r = signal(id, 9, SignalScope.STEPS);
        assertThat(r.effects()).containsExactly(new Effect.Terminate(id, List.of("n1"), JobState.CANCELLED, 0));
        assertThat(state.job(id).status().state()).isEqualTo(JobState.CANCELLED);
        assertThat(state.job(id).status().exitStatus())
                .as("ExitCode=0:15, as scancel's")
                .isEqualTo(15);
    }

    @Test
    void sigkillToTheBatchShellAloneIsASignal() {
        int id = job(aJob().build(), true);
        assertThat(signal(id, 9, SignalScope.BATCH).effects())
                .containsExactly(new Effect.Signal(id, List.of("n1"), 9, true, false));
        assertThat(state.job(id).status().state()).isEqualTo(JobState.RUNNING);
    }

    @Test
    void aJobCancelledWhileItWaitedKeepsWhyItWaited() {
        int waiting = job(aJob().build(), false);
        int held = job(aJob().hold().build(), false);
        state.setQueueView(ClusterImage.QueueFacts.NONE.withPendingReasons(Map.of(waiting, JobReason.RESOURCES)));
        signal(waiting, 9, SignalScope.STEPS);
        signal(held, 9, SignalScope.STEPS);
        assertThat(state.job(waiting).status().state()).isEqualTo(JobState.CANCELLED);
        assertThat(state.job(waiting).status().reason()).isEqualTo(JobReason.RESOURCES);
        assertThat(state.job(held).status().reason()).isEqualTo(JobReason.JOB_HELD_USER);
    }
}
