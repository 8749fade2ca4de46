package dev.sluice.ctld.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.Builders;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.control.AllocationProlog;
import dev.sluice.ctld.control.ControlResult;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.DaemonReport;
import dev.sluice.ctld.state.NodeEndpoint;
import dev.sluice.ctld.state.NodeEquipment;
import dev.sluice.ctld.state.NodeFacts;
import dev.sluice.ctld.state.NodeHardware;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.protocol.v1.journal.JobEndedRecord;
import dev.sluice.protocol.v1.journal.JournalEntry;
import dev.sluice.protocol.v1.journal.JournalJobState;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PrologFlags=Alloc across a controller restart: a job whose Prolog has not been reported done on
 * every node still waits for exactly those nodes (each reports once, so one that reported before
 * the restart is not waited for again), and an allocation that a failed Prolog ended still names
 * the node for salloc. Both come from the journal's tail and from its snapshot.
 */
class TestPrologWaitRecords {
    private static final Allocation ON_N1_N2 =
            new Allocation(List.of(Allocation.NodeShare.of("n1", 1, 0, 1), Allocation.NodeShare.of("n2", 1, 0, 1)));
    private static final Allocation ON_N3 = new Allocation(List.of(Allocation.NodeShare.of("n3", 1, 0, 1)));

    @TempDir
    Path dir;

    private static ClusterState fresh() {
        return ClusterFixture.aCluster().nodes(3).configured();
    }

    private static void journal(Journal journal, ClusterState state, StateRecord record) {
        long seq = state.sequence() + 1;
        journal.append(seq, record);
        state.replay(seq, record);
    }

    /** What the loop journals of a decision (these decide records only). */
    private static void journal(Journal journal, ClusterState state, ControlResult<?> result) {
        assertThat(result.softChanges()).isEmpty();
        result.records().forEach(r -> journal(journal, state, r));
    }

    /** The job starts on {@code allocation} at {@code time}, its allocation Prolog waited for. */
    private static void startWaited(Journal journal, ClusterState state, int id, Allocation allocation, long time) {
        var started = new StateRecord.JobStarted(id, allocation, "p", 60, time);
        journal(journal, state, started);
        AllocationProlog.started(started, true).forEach(r -> journal(journal, state, r));
    }

    private static StateRecord registered(String node) {
        return new StateRecord.NodeRegistered(
                node,
                new NodeEndpoint(node, "10.0.0.1", 7001),
                new NodeEquipment(NodeHardware.ofCpus(4, 1000), List.of(), ""),
                new DaemonReport(5, "v", NodeFacts.NONE),
                false,
                10);
    }

    private ClusterState restarted() throws Exception {
        ClusterState state = fresh();
        Recovery.recover(dir, state, false).journal().close();
        return state;
    }

    @Test
    void aRestartedControllerWaitsForTheNodesThatHaveNotReportedTheirPrologAndForNoOther() throws Exception {
        ClusterState live = fresh();
        Journal journal = Recovery.recover(dir, live, false).journal();
        journal(journal, live, new StateRecord.JobSubmitted(2, Builders.aJob().build(), "p", 60, 100));
        journal(journal, live, new StateRecord.JobSubmitted(3, Builders.aJob().build(), "p", 60, 100));
        startWaited(journal, live, 2, ON_N1_N2, 110);
        journal(journal, live, AllocationProlog.prologDone(live, "n1", 2, 0, 111));
        journal.sync();
        // Job 2 comes back from the snapshot, job 3 from the journal's tail.
        journal.compact(live.sequence(), live.nextJobId(), live.toRecords());
        startWaited(journal, live, 3, ON_N3, 112);
        journal.sync();
        journal.close();

        ClusterState state = restarted();
        assertThat(state.image()).isEqualTo(live.image());
        assertThat(state.prologRunsOn(state.job(2))).containsExactly("n2");
        assertThat(state.prologRunsOn(state.job(3))).containsExactly("n3");
        assertThat(state.image().reason(state.job(2))).isEqualTo(JobReason.PROLOG);

        // n1 reported before the restart: a repeat of it changes nothing, and n2's report ends
        // the wait, once.
        assertThat(AllocationProlog.prologDone(state, "n1", 2, 0, 120).records())
                .isEmpty();
        ControlResult<Void> n2 = AllocationProlog.prologDone(state, "n2", 2, 0, 121);
        assertThat(n2.records()).containsExactly(new StateRecord.PrologWait(2, Set.of(), 121));
        n2.records().forEach(r -> state.replay(state.sequence() + 1, r));
        assertThat(state.waitsForProlog(state.job(2))).isFalse();
        assertThat(state.image().reason(state.job(2))).isEqualTo(JobReason.NONE);
        assertThat(AllocationProlog.prologDone(state, "n2", 2, 0, 122).records())
                .isEmpty();
    }

    @Test
    void aPrologThatEndedItsWaitBeforeTheRestartIsNotWaitedForAgain() throws Exception {
        ClusterState live = fresh();
        Journal journal = Recovery.recover(dir, live, false).journal();
        journal(journal, live, new StateRecord.JobSubmitted(2, Builders.aJob().build(), "p", 60, 100));
        startWaited(journal, live, 2, ON_N1_N2, 110);
        journal(journal, live, AllocationProlog.prologDone(live, "n1", 2, 0, 111));
        journal(journal, live, AllocationProlog.prologDone(live, "n2", 2, 0, 112));
        journal.sync();
        journal.close();

        ClusterState fromJournal = restarted();
        assertThat(fromJournal.waitsForProlog(fromJournal.job(2))).isFalse();
        assertThat(fromJournal.toRecords()).noneMatch(r -> r instanceof StateRecord.PrologWait);
    }

    @Test
    void aRequeuedJobsNextRunDoesNotInheritTheWaitOfTheRunBefore() {
        ClusterState live = fresh();
        live.replay(1, new StateRecord.JobSubmitted(2, Builders.aJob().build(), "p", 60, 100));
        live.replay(2, new StateRecord.JobStarted(2, ON_N1_N2, "p", 60, 110));
        live.replay(3, new StateRecord.PrologWait(2, Set.of("n1", "n2"), 110));
        live.replay(4, StateRecord.JobRequeued.at(2, 110));
        // Started again within the same second, this time with no Prolog waited for.
        live.replay(5, new StateRecord.JobStarted(2, ON_N1_N2, "p", 60, 110));
        assertThat(live.waitsForProlog(live.job(2))).isFalse();
    }

    @Test
    void theNodeWhosePrologEndedAnAllocationIsJournaledWithItsEndAndSurvivesASnapshot() throws Exception {
        ClusterState live = fresh();
        Journal journal = Recovery.recover(dir, live, false).journal();
        // Registered, so that a snapshot carries when each node was last busy.
        for (String node : List.of("n1", "n2", "n3")) {
            journal(journal, live, registered(node));
        }
        journal(
                journal,
                live,
                new StateRecord.JobSubmitted(2, Builders.aJob().script("").build(), "p", 60, 100));
        startWaited(journal, live, 2, ON_N1_N2, 110);
        ControlResult<Void> failed = AllocationProlog.prologFailed(live, "n2", 2, 0, "slurm", 111);
        assertThat(failed.records())
                .contains(new StateRecord.JobEnded(2, JobState.CANCELLED, 15, JobReason.NONE, 111, 0, "n2"));
        journal(journal, live, failed);
        journal.sync();
        journal.close();

        ClusterState fromJournal = restarted();
        assertThat(fromJournal.image().prologFailedOn(fromJournal.job(2))).contains("n2");
        assertThat(fromJournal.image()).isEqualTo(live.image());

        ClusterState fromSnapshot = fresh();
        for (StateRecord r : fromJournal.toRecords()) {
            fromSnapshot.restore(fromJournal.sequence(), r);
        }
        assertThat(fromSnapshot.image().prologFailedOn(fromSnapshot.job(2))).contains("n2");
        assertThat(fromSnapshot.image()).isEqualTo(fromJournal.image());
    }

    @Test
    void bothRecordsTravelThroughTheCodec() {
        var wait = new StateRecord.PrologWait(2, Set.of("n2", "n1"), 110);
        assertThat(RecordCodec.encode(1, wait).getPrologWait().getNodesList()).containsExactly("n1", "n2");
        assertThat(RecordCodec.decode(RecordCodec.encode(1, wait))).isEqualTo(wait);
        var over = new StateRecord.PrologWait(2, Set.of(), 111);
        assertThat(RecordCodec.decode(RecordCodec.encode(2, over))).isEqualTo(over);
        var ended = new StateRecord.JobEnded(2, JobState.CANCELLED, 15, JobReason.NONE, 111, 0, "n2");
        assertThat(RecordCodec.decode(RecordCodec.encode(3, ended))).isEqualTo(ended);
    }

    @Test
    void anEndJournaledBeforeTheFieldNamesNoNode() {
        // As an older controller wrote it: no prolog_failed_node.
        JournalEntry old = JournalEntry.newBuilder()
                .setSequence(4)
                .setTime(111)
                .setJobEnded(JobEndedRecord.newBuilder()
                        .setJobId(2)
                        .setState(JournalJobState.JOURNAL_JOB_CANCELLED)
                        .setExitStatus(15)
                        .setReason("None")
                        .setRequid(0))
                .build();
        assertThat(((StateRecord.JobEnded) RecordCodec.decode(old)).prologFailedNode())
                .isEmpty();
    }
}
