package dev.sluice.ctld.state;

import dev.sluice.ctld.state.StateRecord.ArrayTaskSplit;
import dev.sluice.ctld.state.StateRecord.JobEnded;
import dev.sluice.ctld.state.StateRecord.JobHoldChanged;
import dev.sluice.ctld.state.StateRecord.JobRequeued;
import dev.sluice.ctld.state.StateRecord.JobStarted;
import dev.sluice.ctld.state.StateRecord.JobSuspendChanged;
import dev.sluice.ctld.state.StateRecord.JobUpdated;
import dev.sluice.ctld.state.StateRecord.JobsPurged;

/** What a journaled record does to a job, whatever caused it: the columns of {@link JobLifecycle#next}. */
public enum JobMove {
    /** {@code ArrayTaskSplit}: a pending task leaves its array record. */
    SPLIT,
    /** {@code JobUpdated}. */
    UPDATE,
    /** {@code JobHoldChanged}. */
    HOLD,
    /** {@code JobStarted}. */
    START,
    /** {@code JobSuspendChanged}, suspended. */
    SUSPEND,
    /** {@code JobSuspendChanged}, resumed. */
    RESUME,
    /** {@code JobPreemptGraceStarted}: signalled, it runs on until its deadline. */
    GRACE,
    /** {@code JobEnded} as CANCELLED. */
    CANCEL,
    /** {@code JobEnded} as DEADLINE: a pending job whose time limit can no longer end before its deadline. */
    EXPIRE,
    /** {@code JobEnded} in any other final state. */
    END,
    /** {@code JobEndReported}: an ended job's exit status from its batch host's late report. */
    END_REPORTED,
    /** {@code JobRequeued}. */
    REQUEUE,
    /** {@code JobsPurged}. */
    PURGE;

    public static JobMove of(StateRecord record) {
        return switch (record) {
            case ArrayTaskSplit r -> SPLIT;
            case JobUpdated r -> UPDATE;
            case JobHoldChanged r -> HOLD;
            case JobStarted r -> START;
            case JobSuspendChanged r -> r.suspended() ? SUSPEND : RESUME;
            case StateRecord.JobPreemptGraceStarted r -> GRACE;
            case JobEnded r ->
                switch (r.state()) {
                    case CANCELLED -> CANCEL;
                    case DEADLINE -> EXPIRE;
                    default -> END;
                };
            case StateRecord.JobEndReported r -> END_REPORTED;
            case JobRequeued r -> REQUEUE;
            case JobsPurged r -> PURGE;
            default -> throw new IllegalArgumentException("not a job move: " + record);
        };
    }
}
