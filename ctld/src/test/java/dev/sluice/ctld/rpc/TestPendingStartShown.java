package dev.sluice.ctld.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.ctld.Builders;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.ControlHarness;
import dev.sluice.ctld.control.PlanApplier;
import dev.sluice.ctld.sched.SchedulePlan;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.protocol.v1.JobInfo;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What squeue --start and scontrol show of a pending job's start, as Slurm 22.05 does (compat
 * 261): backfill's estimate and the nodes it planned (SCHEDNODES), else the job's --begin time;
 * its end is that start plus its time limit; N/A (0) for a job with neither.
 */
class TestPendingStartShown {
    private static final long NOW = 1_000;
    private ClusterState state;
    private final ControlHarness harness = new ControlHarness();

    @BeforeEach
    void aPassPlannedOneJob() {
        state = ClusterFixture.aCluster().nodes(2).configured();
        // Each submitted at 100 for 60 minutes.
        harness.replay(state, new StateRecord.JobSubmitted(1, Builders.aJob().build(), "p", 60, 100));
        harness.replay(
                state,
                new StateRecord.JobSubmitted(2, Builders.aJob().begin(5_000).build(), "p", 60, 100));
        harness.replay(state, new StateRecord.JobSubmitted(3, Builders.aJob().build(), "p", 60, 100));
        harness.replay(
                state,
                new StateRecord.JobSubmitted(4, Builders.aJob().begin(500).build(), "p", 60, 100));
        Allocation onBoth =
                new Allocation(List.of(Allocation.NodeShare.of("n1", 1, 0, 1), Allocation.NodeShare.of("n2", 1, 0, 1)));
        SchedulePlan plan = new SchedulePlan(
                List.of(),
                List.of(),
                List.of(),
                Map.of(1, JobReason.RESOURCES, 2, JobReason.BEGIN_TIME, 3, JobReason.DEPENDENCY, 4, JobReason.PRIORITY),
                Map.of(1, 4_600L),
                Map.of(),
                Map.of(),
                Map.of(1, onBoth),
                List.of(),
                List.of());
        harness.apply(state, PlanApplier.apply(state, plan, NOW));
    }

    private JobInfo shown(int id) {
        ClusterImage image = state.image();
        return InfoMapper.job(
                image, image.job(id).orElseThrow(), false, InfoMapper.Shown.of(image, false, Set.of()), NOW);
    }

    @Test
    void backfillsEstimateComesWithItsNodesAndAnEndOneTimeLimitLater() {
        JobInfo planned = shown(1);
        assertThat(planned.getStartTime()).isEqualTo(4_600);
        assertThat(planned.getEndTime()).isEqualTo(4_600 + 3_600);
        assertThat(planned.getSchedNodes()).isEqualTo("n[1-2]");
    }

    @Test
    void aJobHeldUntilItsBeginTimeStartsThenAsFarAsSqueueKnows() {
        JobInfo later = shown(2);
        assertThat(later.getStartTime()).isEqualTo(5_000);
        assertThat(later.getEndTime()).isEqualTo(5_000 + 3_600);
        assertThat(later.getSchedNodes()).isEmpty();
    }

    @Test
    void aBeginTimeThatHasPassedIsNoLongerAStart() {
        // Slurm 22.05 (compat 255): such a job sorts among those without a start.
        assertThat(shown(4).getStartTime()).isZero();
        assertThat(shown(4).getEndTime()).isZero();
    }

    @Test
    void aJobWithNeitherHasNoStartNorEnd() {
        JobInfo unknown = shown(3);
        assertThat(unknown.getStartTime()).isZero();
        assertThat(unknown.getEndTime()).isZero();
        assertThat(unknown.getSchedNodes()).isEmpty();
    }
}
