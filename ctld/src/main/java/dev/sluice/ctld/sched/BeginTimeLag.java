package dev.sluice.ctld.sched;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.Job;
import java.util.HashMap;
import java.util.Map;

/**
 * Why a pending job still says BeginTime after its begin time has passed. slurmctld sets a job's
 * reason only in a scheduling pass, and it has none for a begin time coming: its passes follow
 * events (a submission, a job's end, a change) or its timers (the backfill cycle every 30 s,
 * bf_interval's default). Sluice's loop also passes on the clock's every second, to start jobs
 * whose time has come; such a pass, with nothing changed and no 30 s boundary crossed, leaves a
 * job that still cannot start with BeginTime, as Slurm 22.05 shows it (compat 255: a job whose
 * begin time passed after its reservation ended says BeginTime until the periodic pass holds
 * it). Pure.
 */
public final class BeginTimeLag {
    /** Slurm's backfill cycle (bf_interval's default): its passes come on this timer too. */
    public static final long PERIODIC_PASS_SECONDS = 30;

    private BeginTimeLag() {}

    /**
     * Whether a pass at {@code now} is one Slurm would also make, given the last pass at {@code
     * last}, for a controller started at {@code started}: something changed, or a periodic pass
     * is due (a 30 s boundary from the start lies in {@code (last, now]}).
     */
    public static boolean slurmWouldPass(boolean changed, long started, long last, long now) {
        return changed || periodIndex(started, now) != periodIndex(started, last);
    }

    private static long periodIndex(long started, long at) {
        return Math.floorDiv(at - started, PERIODIC_PASS_SECONDS);
    }

    /**
     * The reasons a pass Slurm would not make leaves: a job that said BeginTime before it keeps
     * it; the others take what the pass found.
     */
    public static Map<Integer, JobReason> keep(Map<Integer, JobReason> fresh, ClusterImage before) {
        Map<Integer, JobReason> kept = new HashMap<>(fresh);
        fresh.forEach((id, reason) -> {
            if (reason != JobReason.BEGIN_TIME
                    && before.job(id).filter(Job::isPending).map(before::reason).orElse(null) == JobReason.BEGIN_TIME) {
                kept.put(id, JobReason.BEGIN_TIME);
            }
        });
        return kept;
    }
}
