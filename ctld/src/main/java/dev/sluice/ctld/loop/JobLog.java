package dev.sluice.ctld.loop;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.hostlist.HostList;
import dev.sluice.common.log.JournalAware;
import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.StateRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.LoggerFactory;

/**
 * Each job's start and end in the controller's log, in slurmctld's words, so what administrators
 * grep slurmctld.log for is there too:
 *
 * <pre>
 * sched: Allocate JobId=12 NodeList=n[1-2] #CPUs=8 Partition=gpu
 * _job_complete: JobId=12 WEXITSTATUS 0        (WTERMSIG 9 for a job a signal ended)
 * _job_complete: JobId=12 done
 * Time limit exhausted for JobId=13
 * </pre>
 *
 * Array tasks are {@code JobId=30_1(33)}: the array, the task and the task's own id. A journal
 * observer, not part of the control code: the decisions stay pure, and the lines come from the
 * records they produced, written once their batch is durable. Jobs cancelled or lost with a
 * node get no line here (slurmctld logs those where the request or the node failure arrives).
 */
public final class JobLog implements JournalObserver {
    private final Consumer<String> sink;
    /** Lines of records applied but not yet synced (loop thread only). */
    private final List<String> pending = new ArrayList<>();

    /** @param sink where each line goes, once its record is durable */
    public JobLog(Consumer<String> sink) {
        this.sink = requireNonNull(sink, "sink is null");
    }

    /** Lines at INFO, printed as slurmctld prints them ({@link JournalAware#SLURM_WORDS}). */
    public static JobLog toLog() {
        org.slf4j.Logger log = LoggerFactory.getLogger(JournalAware.SLURM_WORDS + ".jobs");
        return new JobLog(log::info);
    }

    @Override
    public void applied(long sequence, StateRecord record, ClusterView state) {
        pending.addAll(lines(record, state));
    }

    @Override
    public void beforeSync() {}

    @Override
    public void synced(long sequence) {
        pending.forEach(sink);
        pending.clear();
    }

    /** What slurmctld logs for {@code record}; {@code state} is the state after it. */
    static List<String> lines(StateRecord record, ClusterView state) {
        return switch (record) {
            case StateRecord.JobStarted s -> {
                yield List.of("sched: Allocate " + jobRef(s.jobId(), state) + " NodeList="
                        + HostList.compress(s.allocation().nodeNames()) + " #CPUs="
                        + s.allocation().totalCpus() + " Partition=" + s.partition());
            }
            case StateRecord.JobEnded e -> {
                String job = jobRef(e.jobId(), state);
                yield switch (e.state()) {
                    case COMPLETED, FAILED, OUT_OF_MEMORY ->
                        List.of(
                                "_job_complete: " + job + " " + waitStatus(e.exitStatus()),
                                "_job_complete: " + job + " done");
                    case TIMEOUT -> List.of("Time limit exhausted for " + job);
                    default -> List.of();
                };
            }
            default -> List.of();
        };
    }

    /** Slurm's {@code %pJ}: {@code JobId=12}, or {@code JobId=30_1(33)} for an array task. */
    static String jobRef(int jobId, ClusterView state) {
        Job job = state.job(jobId);
        if (job != null && job.array().isArray() && job.array().taskId() >= 0) {
            return "JobId=" + job.array().arrayJobId() + "_" + job.array().taskId() + "(" + job.id() + ")";
        }
        return "JobId=" + jobId;
    }

    /** A wait status as slurmctld words it: the signal that ended the job, or its exit code. */
    static String waitStatus(int status) {
        int signal = status & 0x7f;
        return signal != 0 ? "WTERMSIG " + signal : "WEXITSTATUS " + ((status >> 8) & 0xff);
    }
}
