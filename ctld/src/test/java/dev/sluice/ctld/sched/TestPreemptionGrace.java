package dev.sluice.ctld.sched;

import static dev.sluice.ctld.Builders.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import dev.sluice.common.slurm.PreemptMode;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.StateRecord;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Preemption with GraceTime: the victim's grace, its end (cancel or requeue), and a restart within it. */
class TestPreemptionGrace extends PreemptionFixture {
    @Test
    void withGraceTimeTheVictimIsSignalledAndEndsPreemptedWhenTheGraceIsUp() {
        gracedCluster();
        state = cluster.state();
        int low = running("low", "n1", CPUS, NOW - 100, aJob().build());
        int high = submit("high", aJob().tasks(1).build());
        PreemptPolicy cancel =
                PreemptPolicy.withoutGang(PreemptPolicy.Type.PARTITION_PRIO, PreemptMode.CANCEL, Map.of(), 0, 121);

        SchedulePlan plan = schedule(cancel);
        assertThat(plan.preemptions())
                .containsExactly(new SchedulePlan.Preempt(low, PreemptMode.CANCEL, high, 121, 10));
        var applied = dev.sluice.ctld.control.PlanApplier.apply(state, plan, NOW);
        assertThat(applied.records())
                .containsExactly(new StateRecord.JobPreemptGraceStarted(low, NOW + 10, false, 0, NOW));
        assertThat(applied.effects())
                .containsExactly(
                        // To its steps only: its batch shell hears nothing until the deadline.
                        new dev.sluice.ctld.state.Effect.Signal(low, List.of("n1"), 18, false, true),
                        new dev.sluice.ctld.state.Effect.Signal(low, List.of("n1"), 15, false, true));
        applied.records().forEach(cluster::replay);
        applied.softChanges().forEach(c -> dev.sluice.ctld.loop.SoftState.apply(state, c));

        // During the grace the victim runs on, and nothing more is preempted.
        assertThat(state.image().isPreempting(state.job(low))).isTrue();
        assertThat(schedule(cancel).preemptions()).isEmpty();
        assertThat(dev.sluice.ctld.control.PreemptKills.expire(state, NOW + 9).records())
                .isEmpty();

        var killed = dev.sluice.ctld.control.PreemptKills.expire(state, NOW + 10);
        assertThat(killed.records())
                .containsExactly(
                        StateRecord.JobEnded.unrequested(low, JobState.PREEMPTED, 0, JobReason.NONE, NOW + 10));
        killed.records().forEach(cluster::replay);
        // Its resources stay taken until its batch host reports the script gone.
        assertThat(state.completingOn(low)).containsExactly("n1");
        assertThat(schedule(cancel).starts()).isEmpty();
        var reported = dev.sluice.ctld.control.BatchEnds.complete(state, "n1", low, 15, null, NOW + 12);
        reported.records().forEach(cluster::replay);
        reported.softChanges().forEach(c -> dev.sluice.ctld.loop.SoftState.apply(state, c));
        assertThat(schedule(cancel).starts())
                .extracting(SchedulePlan.Start::jobId)
                .containsExactly(high);
    }

    @Test
    void withGraceTimeARequeueVictimRunsItsGraceThenIsRequeuedEvenAfterARestart() {
        gracedCluster("REQUEUE");
        state = cluster.state();
        int low = running("low", "n1", CPUS, NOW - 100, aJob().requeue().build());
        int high = submit("high", aJob().tasks(1).build());
        PreemptPolicy requeue = PreemptPolicy.withoutGang(
                PreemptPolicy.Type.PARTITION_PRIO, PreemptMode.CANCEL, Map.of("low", PreemptMode.REQUEUE), 0, 121);

        SchedulePlan plan = schedule(requeue);
        // Slurm 22.05 gives a REQUEUE victim its GraceTime too (compat 243).
        assertThat(plan.preemptions())
                .containsExactly(new SchedulePlan.Preempt(low, PreemptMode.REQUEUE, high, 121, 10));
        var applied = dev.sluice.ctld.control.PlanApplier.apply(state, plan, NOW);
        assertThat(applied.records())
                .containsExactly(new StateRecord.JobPreemptGraceStarted(low, NOW + 10, true, 121, NOW));
        applied.records().forEach(cluster::replay);

        ClusterState restored = cluster.emptyCopy();
        long seq = 0;
        for (StateRecord r : state.toRecords()) {
            restored.restore(
                    ++seq,
                    dev.sluice.ctld.persistence.RecordCodec.decode(
                            dev.sluice.ctld.persistence.RecordCodec.encode(seq, r)));
        }
        assertThat(dev.sluice.ctld.control.PreemptKills.expire(restored, NOW + 9)
                        .records())
                .isEmpty();
        // At the deadline it pends again, held back from then, as a requeue without grace is.
        assertThat(dev.sluice.ctld.control.PreemptKills.expire(restored, NOW + 10)
                        .records())
                .containsExactly(new StateRecord.JobRequeued(low, false, NOW + 10, NOW + 10 + 121, true));
    }

    @Test
    void aRestartedControllerKeepsTheGraceDeadlineAndDoesNotSignalAgain() {
        gracedCluster();
        state = cluster.state();
        int low = running("low", "n1", CPUS, NOW - 100, aJob().build());
        submit("high", aJob().tasks(1).build());
        PreemptPolicy cancel =
                PreemptPolicy.withoutGang(PreemptPolicy.Type.PARTITION_PRIO, PreemptMode.CANCEL, Map.of(), 0, 121);
        dev.sluice.ctld.control.PlanApplier.apply(state, schedule(cancel), NOW)
                .records()
                .forEach(cluster::replay);

        // Restarted from a snapshot whose records went through the journal's codec.
        ClusterState restored = cluster.emptyCopy();
        long seq = 0;
        for (StateRecord r : state.toRecords()) {
            restored.restore(
                    ++seq,
                    dev.sluice.ctld.persistence.RecordCodec.decode(
                            dev.sluice.ctld.persistence.RecordCodec.encode(seq, r)));
        }
        assertThat(restored.preemptGrace(restored.job(low)))
                .map(ClusterState.PreemptGrace::deadline)
                .contains(NOW + 10);
        // Still in its grace: not preempted (nor signalled) a second time, and killed on time.
        state = restored;
        assertThat(schedule(cancel).preemptions()).isEmpty();
        assertThat(dev.sluice.ctld.control.PreemptKills.expire(restored, NOW + 9)
                        .records())
                .isEmpty();
        assertThat(dev.sluice.ctld.control.PreemptKills.expire(restored, NOW + 10)
                        .records())
                .containsExactly(
                        StateRecord.JobEnded.unrequested(low, JobState.PREEMPTED, 0, JobReason.NONE, NOW + 10));
    }
}
