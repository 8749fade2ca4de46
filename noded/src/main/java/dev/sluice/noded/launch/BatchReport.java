package dev.sluice.noded.launch;

import dev.sluice.common.slurm.JobState;
import dev.sluice.noded.job.JobEnd;
import dev.sluice.noded.spool.JobFacts;
import dev.sluice.noded.spool.JobSpool;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A batch job's end as the controller is told it: the status and flags read from the facts
 * its supervisor left in the spool. Kept apart from {@link BatchLauncher} because an end is
 * read the same way whether the job ended under this daemon or while it was away ({@link
 * BatchLauncher#recover}), and only from the spool.
 */
final class BatchReport {
    // Logged under the launcher, as before this was split out of it: log filters name it.
    private static final Logger log = LoggerFactory.getLogger(BatchLauncher.class);

    /** Slurm's SIG_OOM (253) as a wait status: ExitCode 0:125. */
    static final int OOM_STATUS = 125;

    private BatchReport() {}

    /** Also ends the job's confinement, which says whether it ran out of memory. */
    static JobEnd of(JobSpool spool, String nodeName, RunningJob job, JobConfinement confinement) {
        JobFacts facts = spool.facts(job.jobId);
        boolean prologFailed = facts.value(Supervisor.PROLOG_FAILED).isPresent();
        int status = facts.value(Supervisor.WAIT_STATUS)
                .map(raw -> Supervisor.exactStatus(Integer.parseInt(raw)))
                .or(() -> facts.value(Supervisor.EXIT)
                        .map(rc -> Supervisor.waitStatus(Integer.parseInt(rc), job.signalled)))
                // No status: the supervisor itself was killed (or the node rebooted) with the job,
                // or the Prolog failed and the job never started.
                .orElse(prologFailed ? 0 : 9);
        JobState endState = job.endState;
        if (confinement.batchEnded(job.jobId) && endState == null) {
            // Slurm's SIG_OOM: the job shows OUT_OF_MEMORY with ExitCode 0:125.
            endState = JobState.OUT_OF_MEMORY;
            status = OOM_STATUS;
        }
        if (prologFailed) {
            log.error(
                    "job {}: Prolog failed with status {}; the node will be drained",
                    job.jobId,
                    facts.value(Supervisor.PROLOG_FAILED).orElse("?"));
        }
        return new JobEnd(
                nodeName,
                job.jobId,
                job.restartCount,
                status,
                prologFailed,
                facts.value(Supervisor.EPILOG_FAILED).isPresent(),
                Optional.ofNullable(endState));
    }
}
