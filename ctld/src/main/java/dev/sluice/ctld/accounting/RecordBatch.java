package dev.sluice.ctld.accounting;

import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.protocol.v1.AccountingRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * The accounting records of one loop batch, in journal order, until the batch's sync. A job's
 * record is the job as it stands (sluice-dbd keeps the newest per run), so a job record is built
 * only once the batch is done, from the job as it then stands, and one that a later record of
 * the same job in the same batch says again is not built at all: a job submitted and started in
 * one batch ships one record, not two. Records that depend on the moment (a requeued run's end,
 * the cluster's size, a reservation, a step) are built when they happen. Loop thread only.
 */
final class RecordBatch {
    /** One record to ship: built, or (a job's) to be built at the flush. */
    private static final class Entry {
        final long sequence;
        final StateRecord record;
        final int jobId;
        List<AccountingRecord.Builder> built;
        boolean said;

        Entry(long sequence, StateRecord record, int jobId, List<AccountingRecord.Builder> built) {
            this.sequence = sequence;
            this.record = record;
            this.jobId = jobId;
            this.built = built;
        }
    }

    private final List<Entry> entries = new ArrayList<>();
    /** Each job's latest entry still to be built. */
    private final Map<Integer, Entry> unbuilt = new HashMap<>();

    /**
     * Before {@code record} is applied: a requeue starts the job's next run and a purge forgets
     * jobs, so what the batch holds of them is built from the jobs as they stand now, and a
     * requeued run's end is recorded ({@link AccountingEvents#runEnded}).
     */
    void applying(long sequence, StateRecord record, ClusterView state, Supplier<AccountingEvents.Site> site) {
        if (record instanceof StateRecord.JobsPurged purged) {
            for (int jobId : purged.jobIds()) {
                buildNow(jobId, state, site);
            }
        } else if (record instanceof StateRecord.JobRequeued requeued) {
            buildNow(requeued.jobId(), state, site);
            add(sequence, AccountingEvents.runEnded(record, state.job(requeued.jobId()), site.get()));
        }
    }

    /** After {@code record} was applied: the records of the jobs it names. */
    void applied(long sequence, StateRecord record, ClusterView state, Supplier<AccountingEvents.Site> site) {
        for (int jobId : AccountingEvents.jobIdsOf(record)) {
            if (isJobState(record)) {
                addJob(sequence, record, jobId);
            } else {
                add(sequence, AccountingEvents.of(record, state.job(jobId), site.get()));
            }
        }
    }

    /** Records built now, shipped in their place. */
    void add(long sequence, List<AccountingRecord.Builder> records) {
        if (!records.isEmpty()) {
            entries.add(new Entry(sequence, null, 0, records));
        }
    }

    /**
     * Job {@code jobId}'s record after {@code record}, built at the flush; whether it replaces
     * the job's unbuilt record before it is {@link #says}'s answer.
     */
    private void addJob(long sequence, StateRecord record, int jobId) {
        Entry e = new Entry(sequence, record, jobId, null);
        Entry before = unbuilt.put(jobId, e);
        if (before != null && says(record, before.record)) {
            before.said = true;
        }
        entries.add(e);
    }

    /** Builds job {@code jobId}'s unbuilt records now, from the job as {@code state} holds it. */
    private void buildNow(int jobId, ClusterView state, Supplier<AccountingEvents.Site> site) {
        if (unbuilt.remove(jobId) == null) {
            return;
        }
        for (Entry e : entries) {
            if (e.built == null && !e.said && e.jobId == jobId) {
                e.built = AccountingEvents.of(e.record, state.job(jobId), site.get());
            }
        }
    }

    /** Hands every record of the batch, in journal order, to {@code ship}, and starts the next batch. */
    void flush(ClusterView state, AccountingEvents.Site site, BiConsumer<Long, AccountingRecord.Builder> ship) {
        for (Entry e : entries) {
            if (e.said) {
                continue;
            }
            List<AccountingRecord.Builder> records =
                    e.built != null ? e.built : AccountingEvents.of(e.record, state.job(e.jobId), site);
            for (AccountingRecord.Builder r : records) {
                ship.accept(e.sequence, r);
            }
        }
        entries.clear();
        unbuilt.clear();
    }

    boolean isEmpty() {
        return entries.isEmpty();
    }

    /**
     * Whether the job's record after {@code later} says all that its record after {@code earlier}
     * would: both are the job as it stands, so it does unless {@code earlier} also ships the batch
     * step (a start or end) and {@code later} does not.
     */
    static boolean says(StateRecord later, StateRecord earlier) {
        return shipsBatchStep(later) || !shipsBatchStep(earlier);
    }

    private static boolean shipsBatchStep(StateRecord record) {
        return record instanceof StateRecord.JobStarted || record instanceof StateRecord.JobEnded;
    }

    /** Records whose only output is the job's record (and its batch step): built at the flush. */
    private static boolean isJobState(StateRecord record) {
        return switch (record) {
            case StateRecord.JobSubmitted r -> true;
            case StateRecord.JobRequeued r -> true;
            case StateRecord.JobSuspendChanged r -> true;
            case StateRecord.JobStarted r -> true;
            case StateRecord.JobEnded r -> true;
            case StateRecord.JobUpdated r -> true;
            case StateRecord.ArrayTaskSplit r -> true;
            default -> false;
        };
    }
}
