package dev.sluice.noded.launch;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.slurm.JobState;
import dev.sluice.noded.job.BatchJob;
import dev.sluice.noded.job.JobEnd;
import dev.sluice.noded.spool.ForkLock;
import dev.sluice.noded.spool.JobSpool;
import dev.sluice.noded.spool.Outbox;
import java.io.IOException;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts batch scripts and watches them to the end: as the submitting user (dropping
 * privileges with {@code setpriv} when the daemon is root), in a session of their own so that
 * every process of the job can be signalled together, with output files opened by the user,
 * each under a {@link Supervisor} that does not depend on this daemon (see {@link #recover}).
 * Enforces the time limit (SIGTERM, then SIGKILL after KillWait) and reports each end once,
 * durably, through the {@link Outbox} the registrar drains. What it decides about a job (ended as
 * TIMEOUT, was signalled) goes to the spool as well, so a restarted daemon decides the same.
 * Everything it works with is given at construction ({@link LaunchSetup}); what reconfigure
 * changes it reads at each launch.
 *
 * <p>Launches are idempotent per job id: the controller may resend one after a restart.
 */
public final class BatchLauncher implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(BatchLauncher.class);

    private final LaunchSetup setup;
    private final String nodeName;
    private final JobSpool spool;
    private final Supervisor supervisor;
    // Forks supervisors where Perl runs; absent, each job's supervisor is a process of its own.
    private final java.util.Optional<SupervisorHost> host;
    private final Outbox outbox;
    private final int daemonUid;
    private final InstantSource clock;
    private final JobConfinement confinement;
    private final BiConsumer<Integer, String> stepSignals;
    private final Map<Integer, RunningJob> running = new ConcurrentHashMap<>();
    /** Guarded by this launcher's monitor. */
    private final LaunchMemory memory = new LaunchMemory();

    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon(true).name("noded-timers").factory());
    private final PrologWatch prologWatch;
    private final JobEnds ends;

    /**
     * @param outbox where each job's end goes, durably, for the registrar to deliver
     * @param stepSignals told whenever a whole job is signalled, with the signal's name: its
     *     steps' tasks run outside its session and end with it ({@link StepLauncher#signalJob})
     */
    public BatchLauncher(LaunchSetup setup, Outbox outbox, BiConsumer<Integer, String> stepSignals) throws IOException {
        this(setup, outbox, stepSignals, Supervisor.install(setup.spool().root()));
    }

    /** With the supervisor chosen: tests run the shell one where Perl runs too. */
    BatchLauncher(LaunchSetup setup, Outbox outbox, BiConsumer<Integer, String> stepSignals, Supervisor supervisor) {
        this.setup = requireNonNull(setup, "setup is null");
        this.nodeName = setup.nodeName();
        this.spool = setup.spool();
        this.daemonUid = setup.daemonUid();
        this.clock = setup.clock();
        this.confinement = setup.confinement();
        this.outbox = requireNonNull(outbox, "outbox is null");
        this.stepSignals = requireNonNull(stepSignals, "stepSignals is null");
        this.supervisor = requireNonNull(supervisor, "supervisor is null");
        this.host = supervisor.host();
        this.prologWatch = new PrologWatch(timers, spool, outbox, nodeName);
        this.ends = new JobEnds(nodeName, spool, supervisor, daemonUid, clock, stepSignals, timers);
    }

    public Set<Integer> runningJobIds() {
        return Set.copyOf(running.keySet());
    }

    /** sstat: what the batch script of the job (task 0) and everything it started use now; empty when it does not run here. */
    public java.util.Optional<dev.sluice.noded.job.TaskUsage> batchUsage(int jobId, ProcessUsage reader) {
        RunningJob job = running.get(jobId);
        if (job == null || job.endState != null) {
            return java.util.Optional.empty();
        }
        java.util.Optional<Long> pid = spool.fact(jobId, Supervisor.JOB_PID).map(Long::parseLong);
        return pid.map(p -> reader.task(0, nodeName, p, reader.cpuFreqKhz()));
    }

    /** Running job id → the GPU indices it holds here, whole or as MPS/shard share (metrics). */
    public Map<Integer, List<Integer>> runningJobGpus() {
        Map<Integer, List<Integer>> out = new java.util.TreeMap<>();
        running.forEach((id, job) -> out.put(id, job.gpus));
        return out;
    }

    /**
     * @param record the launch as the spool keeps it ({@link JobSpool#saveLaunch}): the bytes the
     *     controller signed, as the credential check gave them, so not made again from the job
     * @throws IOException when the job cannot be started here (the controller requeues or fails it)
     */
    public synchronized void launch(BatchJob launched, byte[] record) throws IOException {
        int jobId = launched.jobId();
        if (memory.ran(jobId, launched.restartCount())) {
            log.info("job {} already ran here; ignoring the repeated launch", jobId);
            return;
        }
        if (running.containsKey(jobId) || spool.knows(jobId)) {
            int earlier = spool.launch(jobId).map(BatchJob::restartCount).orElse(launched.restartCount());
            if (launched.restartCount() > earlier) {
                // Requeued: the controller retries until the killed run has ended and been reported.
                throw new IOException("the previous run of job " + jobId + " is still ending here");
            }
            log.info("job {} already launched here; ignoring the repeated launch", jobId);
            return;
        }
        int uid = launched.owner().uid();
        LaunchPolicy policy = setup.policy().get();
        SupervisedStart.Request request = new SupervisedStart(
                        nodeName,
                        spool,
                        supervisor,
                        host.isPresent(),
                        daemonUid,
                        policy.cpuBinding(),
                        policy.prolog(),
                        policy.epilog(),
                        confinement)
                .prepare(launched);
        spool.saveLaunch(jobId, record);
        RunningJob job;
        if (host.isPresent()) {
            SupervisorHost.Started started = host.get().start(request.arguments());
            job = new RunningJob(spool, launched, started.pid(), started.ended());
        } else {
            Process process = ForkLock.start(supervisor.alone(request.arguments(), request.joinFirst()));
            job = new RunningJob(spool, launched, process.pid(), process.onExit());
        }
        running.put(jobId, job);
        armTimeLimit(job, launched);
        if (policy.prologAtAllocation()) {
            watchProlog(job);
        }
        log.info(
                "job {} started under supervisor pid {} (uid {}) in {}",
                jobId,
                job.supervisorPid,
                uid,
                launched.io().runDir());
        job.supervisorEnded.thenRun(() -> finished(job));
        var early = memory.takeEarlyEnd(jobId, launched.restartCount());
        if (early.isPresent()) {
            // Its terminate came first: this run ends now, through the usual end and report.
            log.info("job {} was ended ({}) before its launch arrived; ending it", jobId, early.get());
            ends.ending(job, early.get());
        }
    }

    /** {@code PrologFlags=Alloc}: the controller hears when the job's Prolog is done. */
    private void watchProlog(RunningJob job) {
        prologWatch.watch(job, () -> job.endState != null || running.get(job.jobId) != job);
    }

    /** The time limit counts the time the job has run: not the time it spent suspended. */
    private void armTimeLimit(RunningJob job, BatchJob launched) {
        var limit = launched.times().timeLimit();
        if (limit.isPresent() && job.suspendedAt < 0) {
            long ran = Math.max(
                    0,
                    clock.instant().getEpochSecond()
                            - launched.times().start().getEpochSecond()
                            - job.suspendedSeconds);
            long delay = Math.max(0, limit.get().toSeconds() - ran);
            job.limit = timers.schedule(() -> ends.ending(job, JobState.TIMEOUT), delay, TimeUnit.SECONDS);
        }
    }

    /**
     * After a restart of this daemon: every job of the spool without a report is either still
     * running under its supervisor (adopted again: time limit re-armed, end watched), or ended
     * while the daemon was away (reported from the status its supervisor wrote). A job whose
     * supervisor vanished without a status (the node rebooted) is reported killed.
     */
    public synchronized void recover() throws IOException {
        for (int jobId : spool.unfinishedJobs()) {
            var launched = spool.launch(jobId);
            if (launched.isEmpty()) {
                // The daemon stopped before the launch was recorded: nothing ran.
                spool.forget(jobId);
                continue;
            }
            var handle = KnownSupervisor.of(spool.jobDir(jobId), spool.fact(jobId, Supervisor.SUPERVISOR_PID));
            RunningJob job = RunningJob.recovered(spool, launched.get(), handle);
            if (handle.isEmpty()) {
                log.info("job {} ended while sluice-noded was not running", jobId);
                report(job);
                continue;
            }
            running.put(jobId, job);
            log.info(
                    "job {} re-adopted: supervisor pid {} still runs",
                    jobId,
                    handle.get().pid());
            if (job.endState != null) {
                // It was being ended when the daemon stopped: finish the kill.
                JobState state = job.endState;
                job.endState = null;
                ends.end(job, state);
            } else {
                armTimeLimit(job, launched.get());
                if (setup.policy().get().prologAtAllocation()) {
                    // The controller ignores the notice for a run it does not wait for.
                    watchProlog(job);
                }
            }
            job.supervisorEnded.thenRun(() -> finished(job));
        }
    }

    /**
     * scancel and node-down: SIGCONT + SIGTERM to the whole job, SIGKILL after KillWait.
     *
     * @param restartCount the run the controller ends; negative: whichever run is here (an
     *     orphan the controller no longer knows)
     */
    public void terminate(int jobId, JobState state, int restartCount) {
        RunningJob job;
        // A launch in progress holds this monitor until the job is in `running`: a cancel that
        // arrives meanwhile (a slow first launch) waits for it instead of missing the job, which
        // would then run to its end while the controller shows it COMPLETING. A cancel that
        // arrives before the launch itself is remembered for that run.
        synchronized (this) {
            job = running.get(jobId);
            if (job == null && restartCount >= 0 && !spool.knows(jobId)) {
                memory.endedBeforeLaunch(jobId, restartCount, state);
            }
        }
        if (job != null) {
            ends.ending(job, state);
        }
    }

    /**
     * {@code scontrol suspend/resume}: SIGSTOP (or SIGCONT) to every process of the job's session;
     * the time limit stops while the job is suspended and runs on from where it stood.
     */
    public boolean suspend(int jobId, boolean suspend) {
        RunningJob job = running.get(jobId);
        if (job == null) {
            return false;
        }
        synchronized (job) {
            long now = clock.instant().getEpochSecond();
            if (suspend) {
                if (job.suspendedAt < 0) {
                    ScheduledFuture<?> limit = job.limit;
                    if (limit != null) {
                        limit.cancel(false);
                    }
                    job.suspendedAt = now;
                    ends.remember(jobId, RunningJob.SUSPENDED_AT, Long.toString(now));
                }
                ProcessSignals.group(job.pgid(), "STOP");
            } else {
                ProcessSignals.group(job.pgid(), "CONT");
                if (job.suspendedAt >= 0) {
                    job.suspendedSeconds += Math.max(0, now - job.suspendedAt);
                    job.suspendedAt = -1;
                    ends.remember(jobId, RunningJob.SUSPENDED_SECONDS, Long.toString(job.suspendedSeconds));
                    ends.remember(jobId, RunningJob.SUSPENDED_AT, "-1");
                    try {
                        spool.launch(jobId).ifPresent(launched -> armTimeLimit(job, launched));
                    } catch (IOException e) {
                        log.warn("job {}: cannot read its launch to re-arm the time limit: {}", jobId, e.getMessage());
                    }
                }
            }
        }
        return true;
    }

    /**
     * {@code scancel -s -b/--full}: to the batch shell (or its group) once the job's process
     * exists. Before (Prolog, set-up) it is dropped, not kept, as Slurm 22.05's slurmd finds no
     * step to signal then; nor is the job marked signalled, so its own exit status stands.
     *
     * @return whether the job runs here
     */
    public boolean signal(int jobId, int signal, boolean batchOnly) {
        RunningJob job = running.get(jobId);
        if (job == null) {
            return false;
        }
        long pgid = job.publishedPgid();
        if (pgid <= 1) {
            log.info("job {}: signal {} before its process exists (Prolog or set-up): not sent", jobId, signal);
            return true;
        }
        ends.markSignalled(job);
        String pid = batchOnly ? Long.toString(pgid) : "-" + pgid;
        ProcessSignals.run("kill", "-s", Integer.toString(signal), "--", pid);
        return true;
    }

    private void finished(RunningJob job) {
        if (job.limit != null) {
            job.limit.cancel(false);
        }
        report(job);
    }

    private void report(RunningJob job) {
        // Whatever the script left behind in its session goes with it: the Perl supervisor has
        // done so if it recorded the job's status, else it is done here.
        var facts = spool.facts(job.jobId);
        if (facts.value(Supervisor.WAIT_STATUS).isEmpty()) {
            facts.value(Supervisor.JOB_PID)
                    .ifPresent(pgid -> ProcessSignals.run("kill", "-s", "KILL", "--", "-" + pgid));
        }
        stepSignals.accept(job.jobId, "KILL");
        JobEnd report = BatchReport.of(spool, nodeName, job, confinement);
        try {
            // Saved before the job leaves `running`: a heartbeat never shows it gone unreported.
            outbox.post(report);
        } catch (IOException e) {
            log.error("cannot save the end of job {} in the spool: {}", job.jobId, e.getMessage());
        }
        synchronized (this) {
            memory.ranHere(job.jobId, job.restartCount);
        }
        running.remove(job.jobId);
        log.info(
                "job {} ended: status {} ({})",
                job.jobId,
                report.exitStatus(),
                report.endState().map(JobState::name).orElse("exit"));
    }

    @Override
    public void close() {
        timers.shutdownNow();
        host.ifPresent(SupervisorHost::close);
    }
}
