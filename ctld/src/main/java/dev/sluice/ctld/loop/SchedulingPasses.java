package dev.sluice.ctld.loop;

import dev.sluice.ctld.limits.AccountingPolicy;
import dev.sluice.ctld.limits.PolicyView;
import dev.sluice.ctld.sched.BeginTimeLag;
import dev.sluice.ctld.sched.CycleFacts;
import dev.sluice.ctld.sched.SchedulePlan;
import dev.sluice.ctld.sched.Scheduler;
import dev.sluice.ctld.state.ClusterImage;

/**
 * When the loop runs a scheduling pass after a batch, and what that pass plans: it owns what
 * the last pass began at and decided with, and slurmctld's pass timers ({@link BeginTimeLag}).
 * {@link ControllerLoop} journals and publishes the plan.
 *
 * <p>Concurrency: loop thread only.
 */
final class SchedulingPasses {
    /**
     * What a pass decides with besides the cluster image, compared by identity: each part is
     * replaced whole (never changed in place) by whoever owns it outside the loop.
     */
    record Inputs(Scheduler scheduler, PolicyView limits, AccountingPolicy policy) {
        boolean sameAs(Inputs last) {
            return last != null && scheduler == last.scheduler && limits == last.limits && policy == last.policy;
        }
    }

    /** What the last pass decided with besides the image (null: none yet). */
    private Inputs passInputs;
    /** The journal sequence the last scheduling pass began at. */
    private long passedAt = -1;
    /** When the last scheduling pass ran (epoch seconds). */
    private long lastPassTime;
    /** Where slurmctld's pass timers count from: the controller's start. */
    private final long started;

    SchedulingPasses(long started) {
        this.started = started;
        this.lastPassTime = started;
    }

    /**
     * The plan of the pass due after a batch, timed; null when none is due.
     *
     * @param nextSequence the journal's next sequence now
     * @param softChanged whether the batch changed soft state that matters to scheduling
     * @param tick whether the clock reached a new second
     */
    SchedulePlan planIfDue(
            ClusterImage image,
            Inputs inputs,
            long nextSequence,
            boolean softChanged,
            boolean tick,
            long now,
            LoopTimings timed) {
        // Nothing journalled since the last pass began (a heartbeat from a node that stays as
        // it was, a refused command): no job can start that the last pass did not start, so
        // the pass waits for a change or the clock's next second, when time-bound reasons
        // (BeginTime, reservations) move. The last pass's own starts count as a change: the pass
        // after them sees the pending jobs' reasons against what those starts took.
        boolean changed = nextSequence != passedAt || softChanged;
        // New settings (reconfigure), a new enforcement or the policy sluice-dbd sent last count too.
        boolean newInputs = !inputs.sameAs(passInputs);
        if (!(tick || changed || newInputs)) {
            return null;
        }
        // When slurmctld would not pass now (a pass on the clock alone), jobs keep BeginTime.
        boolean slurmWould = BeginTimeLag.slurmWouldPass(changed || newInputs, started, lastPassTime, now);
        long passStart = System.nanoTime();
        passInputs = inputs;
        passedAt = nextSequence;
        lastPassTime = now;
        SchedulePlan computed =
                inputs.scheduler().schedule(image, now, inputs.limits().enforcement(), inputs.policy());
        SchedulePlan plan = slurmWould
                ? computed
                : computed.withPendingReasons(BeginTimeLag.keep(computed.pendingReasons(), image));
        long took = System.nanoTime() - passStart;
        timed.schedulePass(took);
        if (timed.wantsCycles()) {
            timed.scheduleCycle(took, now, CycleFacts.of(image, plan));
        }
        return plan;
    }
}
