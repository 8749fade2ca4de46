package dev.sluice.noded.launch;

import dev.sluice.noded.spool.JobSpool;
import dev.sluice.protocol.v1.JobState;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/** A batch job as the daemon sees it: through its supervisor and the facts in its spool directory. */
final class RunningJob {
    final int jobId;
    final ProcessHandle supervisor;
    final int killWaitSeconds;
    volatile JobState endState;
    volatile boolean signalled;
    volatile ScheduledFuture<?> limit;
    long suspendedAt = -1;
    long suspendedSeconds;
    final List<Integer> gpus;
    final int restartCount;
    private final JobSpool spool;

    RunningJob(
            JobSpool spool,
            int jobId,
            ProcessHandle supervisor,
            int killWaitSeconds,
            List<Integer> gpus,
            int restartCount) {
        this.spool = spool;
        this.jobId = jobId;
        this.supervisor = supervisor;
        this.killWaitSeconds = killWaitSeconds;
        this.gpus = List.copyOf(gpus);
        this.restartCount = restartCount;
    }

    /**
     * The job's process group (its first process leads a session of its own). The supervisor
     * records it right after starting the job; a signal that arrives in that instant waits for it.
     */
    long pgid() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (true) {
            var pid = spool.fact(jobId, Supervisor.JOB_PID);
            if (pid.isPresent() || !supervisor.isAlive() || System.nanoTime() > deadline) {
                return pid.map(Long::parseLong).orElse(-1L);
            }
            Thread.onSpinWait();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }
}
