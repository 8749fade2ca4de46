package dev.sluice.ctld.persistence;

import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.gres.GresGrant;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.protocol.v1.journal.JournalGresGrant;
import dev.sluice.protocol.v1.journal.JournalJobState;
import dev.sluice.protocol.v1.journal.NodeAllocation;
import java.util.List;

/**
 * The values several records share (job states, allocations) in the journal's own messages, so
 * that the commands' protocol can change without changing what is on disk.
 */
final class ValueCodec {
    private ValueCodec() {}

    static JournalJobState toJournal(JobState s) {
        return switch (s) {
            case PENDING -> JournalJobState.JOURNAL_JOB_PENDING;
            case RUNNING -> JournalJobState.JOURNAL_JOB_RUNNING;
            case SUSPENDED -> JournalJobState.JOURNAL_JOB_SUSPENDED;
            case COMPLETED -> JournalJobState.JOURNAL_JOB_COMPLETED;
            case CANCELLED -> JournalJobState.JOURNAL_JOB_CANCELLED;
            case FAILED -> JournalJobState.JOURNAL_JOB_FAILED;
            case TIMEOUT -> JournalJobState.JOURNAL_JOB_TIMEOUT;
            case NODE_FAIL -> JournalJobState.JOURNAL_JOB_NODE_FAIL;
            case PREEMPTED -> JournalJobState.JOURNAL_JOB_PREEMPTED;
            case BOOT_FAIL -> JournalJobState.JOURNAL_JOB_BOOT_FAIL;
            case DEADLINE -> JournalJobState.JOURNAL_JOB_DEADLINE;
            case OUT_OF_MEMORY -> JournalJobState.JOURNAL_JOB_OUT_OF_MEMORY;
        };
    }

    /** @return null for an unset or unknown state, as the records read before this message did */
    static JobState toDomain(JournalJobState s) {
        return switch (s) {
            case JOURNAL_JOB_PENDING -> JobState.PENDING;
            case JOURNAL_JOB_RUNNING -> JobState.RUNNING;
            case JOURNAL_JOB_SUSPENDED -> JobState.SUSPENDED;
            case JOURNAL_JOB_COMPLETED -> JobState.COMPLETED;
            case JOURNAL_JOB_CANCELLED -> JobState.CANCELLED;
            case JOURNAL_JOB_FAILED -> JobState.FAILED;
            case JOURNAL_JOB_TIMEOUT -> JobState.TIMEOUT;
            case JOURNAL_JOB_NODE_FAIL -> JobState.NODE_FAIL;
            case JOURNAL_JOB_PREEMPTED -> JobState.PREEMPTED;
            case JOURNAL_JOB_BOOT_FAIL -> JobState.BOOT_FAIL;
            case JOURNAL_JOB_DEADLINE -> JobState.DEADLINE;
            case JOURNAL_JOB_OUT_OF_MEMORY -> JobState.OUT_OF_MEMORY;
            case JOURNAL_JOB_STATE_UNSPECIFIED, UNRECOGNIZED -> null;
        };
    }

    static List<NodeAllocation> toJournal(Allocation a) {
        return a.nodes().stream()
                .map(n -> NodeAllocation.newBuilder()
                        .setNode(n.node())
                        .setCpus(n.cpus())
                        .setMemoryMb(n.memoryMb())
                        .setTasks(n.tasks())
                        .addAllGres(n.gres().stream()
                                .map(g -> JournalGresGrant.newBuilder()
                                        .setName(g.name())
                                        .setType(g.type())
                                        .addAllIndices(g.indices())
                                        .setCount(g.count())
                                        .build())
                                .toList())
                        .addAllCores(n.cores())
                        .build())
                .toList();
    }

    static Allocation toDomain(List<NodeAllocation> nodes) {
        return new Allocation(nodes.stream()
                .map(n -> new Allocation.NodeShare(
                        n.getNode(),
                        n.getCpus(),
                        n.getMemoryMb(),
                        n.getTasks(),
                        n.getGresList().stream()
                                .map(g -> new GresGrant(g.getName(), g.getType(), g.getIndicesList(), g.getCount()))
                                .toList(),
                        n.getCoresList()))
                .toList());
    }
}
