package dev.sluice.ctld.state;

/**
 * A job's suspensions ({@code scontrol suspend/resume}, or preemption).
 *
 * @param time when the job was last suspended or resumed, 0 if never
 * @param preSuspendSeconds seconds it ran before its last suspension: with {@code time} it gives
 *     the run time, which (like the time limit) does not count suspended time
 * @param byPreemption suspended by preemption ({@code PreemptMode=SUSPEND,GANG}) rather than by
 *     {@code scontrol suspend}: its resources are lent to its preemptors, which hold them on the
 *     nodes, and it resumes when they are free again
 */
public record Suspension(long time, long preSuspendSeconds, boolean byPreemption) {
    /** Never suspended. */
    public static final Suspension NONE = new Suspension(0, 0, false);

    Suspension withTime(long v) {
        return new Suspension(v, preSuspendSeconds, byPreemption);
    }

    Suspension withPreSuspendSeconds(long v) {
        return new Suspension(time, v, byPreemption);
    }

    Suspension withByPreemption(boolean v) {
        return new Suspension(time, preSuspendSeconds, v);
    }
}
