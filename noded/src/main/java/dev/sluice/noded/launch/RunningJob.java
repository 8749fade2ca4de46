package dev.sluice.noded.launch;

import dev.sluice.common.slurm.JobState;
import dev.sluice.noded.job.BatchJob;
import dev.sluice.noded.spool.JobSpool;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/** A batch job as the daemon sees it: through its supervisor and the facts in its spool directory. */
final class RunningJob {
    // Facts the launcher keeps in the spool of what it decided, so that a restarted daemon
    // decides the same (see recovered).
    static final String END_STATE = "end_state";
    static final String SIGNALLED = "signalled";
    // slurmstepd's line for an end, waiting for whoever renames it to END_NOTICE.claimed first
    // (this daemon, or the supervisor that delivers the end) to append it to the job's error file.
    static final String END_NOTICE = "end_notice";
    // scontrol suspend: when the job was last stopped (-1 while it runs) and how long it has been
    // stopped before, both in epoch seconds, so that its time limit leaves them out, also after
    // this daemon restarts.
    static final String SUSPENDED_AT = "suspended_at";
    static final String SUSPENDED_SECONDS = "suspended_seconds";

    final int jobId;
    final long supervisorPid;
    // Completes when the supervisor has done with the job: its host's line, the end of a lone
    // supervisor, or what a re-adopted one left (KnownSupervisor).
    final CompletableFuture<?> supervisorEnded;
    final int killWaitSeconds;
    volatile JobState endState;
    volatile boolean signalled;
    volatile ScheduledFuture<?> limit;
    long suspendedAt = -1;
    long suspendedSeconds;
    final List<Integer> gpus;
    final int restartCount;
    private final JobSpool spool;

    RunningJob(JobSpool spool, BatchJob launched, long supervisorPid, CompletableFuture<?> supervisorEnded) {
        this.spool = spool;
        this.jobId = launched.jobId();
        this.supervisorPid = supervisorPid;
        this.supervisorEnded = supervisorEnded;
        this.killWaitSeconds = (int) launched.times().killWait().toSeconds();
        this.gpus = launched.onNode().gpus();
        this.restartCount = launched.restartCount();
    }

    /** A job of the spool after this daemon restarted, with what the launcher had decided of it. */
    static RunningJob recovered(JobSpool spool, BatchJob launched, Optional<KnownSupervisor> supervisor) {
        int jobId = launched.jobId();
        RunningJob job = new RunningJob(
                spool,
                launched,
                supervisor.map(KnownSupervisor::pid).orElse(-1L),
                supervisor
                        .<CompletableFuture<?>>map(KnownSupervisor::done)
                        .orElse(CompletableFuture.completedFuture(null)));
        var facts = spool.facts(jobId);
        job.signalled = facts.value(SIGNALLED).isPresent();
        job.endState = facts.value(END_STATE).map(JobState::valueOf).orElse(null);
        job.suspendedAt = facts.value(SUSPENDED_AT).map(Long::parseLong).orElse(-1L);
        job.suspendedSeconds =
                facts.value(SUSPENDED_SECONDS).map(Long::parseLong).orElse(0L);
        return job;
    }

    boolean supervisorAlive() {
        return !supervisorEnded.isDone();
    }

    /** The job's process group as its supervisor has published it so far; -1 before. */
    long publishedPgid() {
        return spool.fact(jobId, Supervisor.JOB_PID).map(Long::parseLong).orElse(-1L);
    }

    /**
     * The job's process group (its first process leads a session of its own). The supervisor
     * records it once the job is started; a signal that arrives before waits for it a while.
     */
    long pgid() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (true) {
            var pid = spool.fact(jobId, Supervisor.JOB_PID);
            if (pid.isPresent() || !supervisorAlive() || System.nanoTime() > deadline) {
                return pid.map(Long::parseLong).orElse(-1L);
            }
            Thread.onSpinWait();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }
}
