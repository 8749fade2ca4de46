package dev.sluice.ctld.accounting;

import static dev.sluice.ctld.Builders.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.JobChange;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.protocol.v1.AccountingRecord;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A loop batch's accounting records: a job's record is the job as it stands at the batch's end,
 * shipped once per batch unless an earlier one carried a batch step the later one does not; a
 * requeue's and a purge's jobs are recorded as they stood before.
 */
class TestRecordBatch {
    private static final long NOW = 1_800_000_000L;
    private static final AccountingEvents.Site SITE =
            AccountingEvents.Site.withoutReservations(true, p -> 1000, id -> 0);

    private ClusterState state;
    private RecordBatch batch;
    private long sequence;
    private final List<String> shipped = new ArrayList<>();
    private final List<Long> sequences = new ArrayList<>();

    @BeforeEach
    void setUp() {
        state = ClusterFixture.idle(1, 4, NOW).state();
        batch = new RecordBatch();
        sequence = state.sequence();
    }

    private void apply(StateRecord record) {
        long seq = ++sequence;
        batch.applying(seq, record, state, () -> SITE);
        state.replay(seq, record);
        batch.applied(seq, record, state, () -> SITE);
    }

    /** What the batch ships, one line a record: "job STATE" or "step STATE". */
    private List<String> flush() {
        shipped.clear();
        batch.flush(state, SITE, (seq, r) -> {
            sequences.add(seq);
            shipped.add(describe(r));
        });
        return List.copyOf(shipped);
    }

    private static String describe(AccountingRecord.Builder r) {
        return r.hasJob()
                ? "job " + r.getJob().getAccountingJob().getState()
                : r.hasStep() ? "step " + r.getStep().getState() : "other";
    }

    private int submit() {
        int id = state.nextJobId();
        apply(new StateRecord.JobSubmitted(id, aJob().tasks(1).build(), "p", 10, NOW));
        return id;
    }

    private void start(int id) {
        apply(new StateRecord.JobStarted(
                id, new Allocation(List.of(Allocation.NodeShare.of("n1", 1, 0, 1))), "p", 10, NOW + 1));
    }

    private void end(int id) {
        apply(new StateRecord.JobEnded(
                id, JobState.COMPLETED, 0, JobReason.NONE, NOW + 2, StateRecord.JobEnded.NOBODY));
    }

    @Test
    void aJobSubmittedAndStartedInOneBatchShipsOneJobRecordAndItsBatchStep() {
        int id = submit();
        start(id);
        assertThat(flush()).containsExactly("job RUNNING", "step RUNNING");
        assertThat(batch.isEmpty()).isTrue();
        assertThat(state.job(id)).isNotNull();
    }

    @Test
    void eachBatchShipsTheJobAsItStandsAtItsEnd() {
        int id = submit();
        assertThat(flush()).containsExactly("job PENDING");
        start(id);
        end(id);
        assertThat(flush()).containsExactly("job COMPLETED", "step COMPLETED");
    }

    @Test
    void aLaterRecordWithoutTheBatchStepDoesNotReplaceAStart() {
        int id = submit();
        start(id);
        apply(new StateRecord.JobUpdated(id, List.of(new JobChange.Comment("later")), NOW + 1));
        assertThat(flush()).containsExactly("job RUNNING", "step RUNNING", "job RUNNING");
    }

    @Test
    void aJobPurgedInTheBatchThatEndedItIsShippedAsItEnded() {
        int id = submit();
        start(id);
        end(id);
        apply(new StateRecord.JobsPurged(List.of(id), NOW + 3));
        assertThat(state.job(id)).isNull();
        assertThat(flush()).containsExactly("job COMPLETED", "step COMPLETED");
    }

    @Test
    void recordsAreShippedInJournalOrder() {
        int first = submit();
        int second = submit();
        start(second);
        start(first);
        end(second);
        assertThat(flush()).hasSize(4);
        assertThat(sequences).isSorted();
    }
}
