package dev.sluice.noded.launch;

import dev.sluice.noded.job.PrologDone;
import dev.sluice.noded.spool.JobSpool;
import dev.sluice.noded.spool.Outbox;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/**
 * {@code PrologFlags=Alloc}: tells the controller once a batch job's Prolog is done (its
 * supervisor wrote {@code prolog.done}, and starts the job next), so that the job no longer shows
 * reason Prolog. The supervisor is the job's user's process chain, so the daemon learns of the
 * file by looking, not by being told. A job that ends before its Prolog is done (it failed, a
 * cancel) is not announced: its end report says what happened.
 */
final class PrologWatch {
    /** How often a job is looked at until its Prolog is done. */
    static final long POLL_MILLIS = 50;

    private final ScheduledExecutorService timers;
    private final JobSpool spool;
    private final Outbox outbox;
    private final String nodeName;

    PrologWatch(ScheduledExecutorService timers, JobSpool spool, Outbox outbox, String nodeName) {
        this.timers = timers;
        this.spool = spool;
        this.outbox = outbox;
        this.nodeName = nodeName;
    }

    /** Watches {@code job} until its Prolog is done or {@code gone} says the job is over. */
    void watch(RunningJob job, BooleanSupplier gone) {
        AtomicReference<ScheduledFuture<?>> task = new AtomicReference<>();
        // Set once the watch has done its part; the task cancels itself on a later tick when the
        // first tick came before the future was stored.
        AtomicBoolean over = new AtomicBoolean();
        task.set(timers.scheduleWithFixedDelay(
                () -> {
                    if (!over.get()) {
                        boolean started = spool.facts(job.jobId).has(Supervisor.PROLOG_DONE);
                        boolean ended = gone.getAsBoolean();
                        // Told even when the job already ended (a short one can between two
                        // looks): the notice goes out before the end report, as in Slurm.
                        if (started) {
                            outbox.postPrologDone(new PrologDone(nodeName, job.jobId, job.restartCount, 0));
                        }
                        over.set(started || ended);
                    }
                    ScheduledFuture<?> self = task.get();
                    if (over.get() && self != null) {
                        self.cancel(false);
                    }
                },
                0,
                POLL_MILLIS,
                TimeUnit.MILLISECONDS));
    }
}
