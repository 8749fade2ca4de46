package dev.sluice.ctld.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.StateRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The controllers' starts (fair-share charging, compat 239) live in the journal and its snapshot. */
class TestControllerStartRecords {
    @TempDir
    Path dir;

    private static ClusterState fresh() {
        return ClusterFixture.aCluster().configured();
    }

    private static void journal(Journal journal, ClusterState state, StateRecord record) {
        long seq = state.sequence() + 1;
        journal.append(seq, record);
        state.replay(seq, record);
    }

    @Test
    void startsSurviveASnapshotAndARestart() throws Exception {
        ClusterState state = fresh();
        Journal journal = Recovery.recover(dir, state, false).journal();
        journal(journal, state, new StateRecord.ControllerStarted(1_000));
        journal(journal, state, new StateRecord.ControllerStarted(2_000));
        journal.sync();
        journal.compact(state.sequence(), state.nextJobId(), state.toRecords());
        // A start journaled after the snapshot comes from the journal's tail.
        journal(journal, state, new StateRecord.ControllerStarted(3_000));
        journal.sync();
        journal.close();

        ClusterState restarted = fresh();
        Recovery.Result r = Recovery.recover(dir, restarted, false);
        r.journal().close();
        assertThat(r.snapshotEntries()).isPositive();
        assertThat(restarted.controllerStarts()).containsExactly(1_000L, 2_000L, 3_000L);
    }

    @Test
    void onlyTheLatestStartsAreKept() {
        ClusterState state = fresh();
        long n = ClusterState.KEPT_CONTROLLER_STARTS + 5L;
        LongStream.rangeClosed(1, n).forEach(t -> state.replay(t, new StateRecord.ControllerStarted(t * 10)));
        List<Long> expected = new ArrayList<>();
        LongStream.rangeClosed(6, n).forEach(t -> expected.add(t * 10));
        assertThat(state.controllerStarts()).isEqualTo(expected);

        ClusterState copy = fresh();
        state.toRecords().forEach(rec -> copy.replay(0, rec));
        assertThat(copy.controllerStarts()).isEqualTo(expected);
    }

    @Test
    void aStartTravelsThroughTheCodecWithItsTime() {
        var record = new StateRecord.ControllerStarted(1_234_567);
        assertThat(RecordCodec.decode(RecordCodec.encode(7, record))).isEqualTo(record);
    }
}
