package dev.sluice.noded.launch;

import dev.sluice.common.slurm.JobState;
import dev.sluice.noded.spool.JobSpool;
import java.io.IOException;
import java.time.InstantSource;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a batch job is ended here: its end line announced in its error file, the end and the
 * signalling recorded in the spool (so a restarted daemon decides the same), SIGCONT and SIGTERM
 * to its whole session and SIGKILL after KillWait, its steps told each signal. {@link
 * BatchLauncher} decides when a job ends; this class how.
 */
final class JobEnds {
    private static final Logger log = LoggerFactory.getLogger(JobEnds.class);

    private final String nodeName;
    private final JobSpool spool;
    private final Supervisor supervisor;
    private final int daemonUid;
    private final InstantSource clock;
    private final BiConsumer<Integer, String> stepSignals;
    private final ScheduledExecutorService timers;

    JobEnds(
            String nodeName,
            JobSpool spool,
            Supervisor supervisor,
            int daemonUid,
            InstantSource clock,
            BiConsumer<Integer, String> stepSignals,
            ScheduledExecutorService timers) {
        this.nodeName = nodeName;
        this.spool = spool;
        this.supervisor = supervisor;
        this.daemonUid = daemonUid;
        this.clock = clock;
        this.stepSignals = stepSignals;
        this.timers = timers;
    }

    /**
     * A first end (not one a restart finishes): announced in the job's error file, then done. The
     * line waits in the spool until the job has opened (truncated) that file: see {@link #end}.
     */
    void ending(RunningJob job, JobState state) {
        if (job.endState != null) {
            return;
        }
        EndNotice.text(nodeName, job.jobId, state, clock.instant(), java.time.ZoneId.systemDefault())
                .ifPresent(line -> {
                    try {
                        spool.writeClaimable(job.jobId, RunningJob.END_NOTICE, line);
                    } catch (IOException e) {
                        log.warn("job {}: cannot keep its end line in the spool: {}", job.jobId, e.getMessage());
                    }
                });
        end(job, state);
    }

    /**
     * Records the end, then signals the job if its pid is published: only once the job leads its
     * own session (with Perl, has opened its files too), and the publisher then reads end_state,
     * so an end recorded before (Prolog, set-up) is delivered there and nothing waits here. With
     * Perl the job writes the line unless this daemon claimed it; without, it ends before it
     * opens its files, so the line this daemon appends stays.
     */
    void end(RunningJob job, JobState state) {
        if (job.endState != null) {
            return;
        }
        job.endState = state;
        markSignalled(job);
        // The steps' TERM before end_state: once that is recorded the supervisor may end the job
        // and its report send the steps KILL, which must not overtake their TERM.
        stepSignals.accept(job.jobId, "TERM");
        remember(job.jobId, RunningJob.END_STATE, state.name());
        long pgid = job.publishedPgid();
        if (pgid > 1 || !supervisor.exact()) {
            announce(job);
        }
        ProcessSignals.groupContThenTerm(pgid);
        timers.schedule(
                () -> {
                    if (job.supervisorAlive()) {
                        // Read again: a job whose end its supervisor delivered has a pid by now.
                        ProcessSignals.group(job.publishedPgid(), "KILL");
                    }
                    stepSignals.accept(job.jobId, "KILL");
                },
                Math.max(1, job.killWaitSeconds),
                TimeUnit.SECONDS);
    }

    /** Appends the job's end line, unless its supervisor claimed it first (whoever renames it writes it). */
    private void announce(RunningJob job) {
        java.nio.file.Path pending = spool.jobDir(job.jobId).resolve(RunningJob.END_NOTICE);
        java.nio.file.Path claimed = pending.resolveSibling(RunningJob.END_NOTICE + ".claimed");
        try {
            java.nio.file.Files.move(pending, claimed, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            String line = java.nio.file.Files.readString(claimed).strip();
            spool.launch(job.jobId).ifPresent(launched -> EndNotice.append(launched, nodeName, daemonUid, line));
        } catch (java.nio.file.NoSuchFileException e) {
            // No line for this end, or the supervisor has it.
        } catch (IOException e) {
            log.warn("job {}: cannot announce its end in its error file: {}", job.jobId, e.getMessage());
        }
    }

    void markSignalled(RunningJob job) {
        if (!job.signalled) {
            job.signalled = true;
            remember(job.jobId, RunningJob.SIGNALLED, "1");
        }
    }

    void remember(int jobId, String fact, String value) {
        try {
            spool.writeFact(jobId, fact, value);
        } catch (IOException e) {
            log.warn("job {}: cannot record {} in the spool: {}", jobId, fact, e.getMessage());
        }
    }
}
