package dev.sluice.ctld.control;

import static dev.sluice.ctld.Builders.aJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.Effect;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.StateRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

class TestAllocationControl {
    private static final long NOW = 1_000_000;
    private static final Caller OWNER = Caller.of(1000, 1000, "alice");
    private final ClusterState state = ClusterFixture.aCluster().configured();
    private long seq;

    private int job(JobRequest request, long limitMinutes, long startedSecondsAgo) {
        int id = state.nextJobId();
        state.replay(++seq, new StateRecord.JobSubmitted(id, request, "p", limitMinutes, NOW - 100));
        if (startedSecondsAgo >= 0) {
            state.replay(
                    ++seq,
                    new StateRecord.JobStarted(
                            id,
                            new Allocation(List.of(Allocation.NodeShare.of("n1", 1, 0, 1))),
                            "p",
                            limitMinutes,
                            NOW - startedSecondsAgo));
        }
        return id;
    }

    private static StateRecord.JobEnded ended(ControlResult<Void> r) {
        assertThat(r.records()).hasSize(1);
        return (StateRecord.JobEnded) r.records().get(0);
    }

    @Test
    void theCommandsStatusEndsTheAllocation() {
        int ok = job(aJob().script("").build(), 60, 10);
        int failed = job(aJob().script("").build(), 60, 10);
        StateRecord.JobEnded a = ended(AllocationControl.complete(state, OWNER, ok, 0, NOW));
        assertThat(a.state()).isEqualTo(JobState.COMPLETED);
        ControlResult<Void> r = AllocationControl.complete(state, OWNER, failed, 3 << 8, NOW);
        StateRecord.JobEnded b = ended(r);
        assertThat(b.state()).isEqualTo(JobState.FAILED);
        assertThat(b.exitStatus()).isEqualTo(3 << 8);
        assertThat(b.reason()).isEqualTo(JobReason.NON_ZERO_EXIT_CODE);
        assertThat(r.effects()).containsExactly(new Effect.Terminate(failed, List.of("n1"), JobState.FAILED, 0));
    }

    @Test
    void aPendingAllocationGivenUpIsCancelledAndOthersAreRefused() {
        int pending = job(aJob().script("").build(), 60, -1);
        assertThat(ended(AllocationControl.complete(state, OWNER, pending, 0, NOW))
                        .state())
                .isEqualTo(JobState.CANCELLED);
        int batch = job(aJob().build(), 60, 10);
        assertThatThrownBy(() -> AllocationControl.complete(state, OWNER, batch, 0, NOW))
                .hasMessageContaining("batch job");
        int other = job(aJob().script("").build(), 60, 10);
        assertThatThrownBy(() -> AllocationControl.complete(state, Caller.of(1001, 1001, "bob"), other, 0, NOW))
                .hasMessage("Access/permission denied");
        assertThatThrownBy(() -> AllocationControl.complete(state, OWNER, 99, 0, NOW))
                .hasMessage("Invalid job id specified");
    }

    @Test
    void theControllerEndsAllocationsAtTheirTimeLimit() {
        int due = job(aJob().script("").build(), 1, 60);
        job(aJob().script("").build(), 1, 59);
        job(aJob().build(), 1, 600);
        job(aJob().script("").build(), JobRequest.TIME_INFINITE, 100_000);
        ControlResult<Void> r = AllocationControl.expire(state, NOW);
        StateRecord.JobEnded e = ended(r);
        assertThat(e.jobId()).isEqualTo(due);
        assertThat(e.state()).isEqualTo(JobState.TIMEOUT);
        assertThat(e.reason()).isEqualTo(JobReason.TIME_LIMIT);
        assertThat(r.effects()).containsExactly(new Effect.Terminate(due, List.of("n1"), JobState.TIMEOUT, 0));
    }
}
