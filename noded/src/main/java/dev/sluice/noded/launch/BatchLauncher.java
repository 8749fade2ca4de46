package dev.sluice.noded.launch;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.slurm.SlurmLimits;
import dev.sluice.noded.spool.ForkLock;
import dev.sluice.noded.spool.JobSpool;
import dev.sluice.protocol.v1.JobCompleteRequest;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.protocol.v1.LaunchBatchJobRequest;
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
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts batch scripts and watches them to the end: as the submitting user (dropping
 * privileges with {@code setpriv} when the daemon is root), in a session of their own so that
 * every process of the job can be signalled together, with output files opened by the user,
 * each under a {@link Supervisor} that does not depend on this daemon (see {@link #recover}).
 * Enforces the time limit (SIGTERM, then SIGKILL after KillWait) and reports each end once,
 * durably, through the completion sink. What it decides about a job (ended as TIMEOUT, was
 * signalled) goes to the spool as well, so a restarted daemon decides the same.
 *
 * <p>Launches are idempotent per job id: the controller may resend one after a restart.
 */
public final class BatchLauncher implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(BatchLauncher.class);

    private final String nodeName;
    private final JobSpool spool;
    private final Supervisor supervisor;
    private final Consumer<JobCompleteRequest> completions;
    private final int daemonUid;
    // Time limits and the suspend clock count in the controller's epoch seconds (a job's start
    // time comes from it); injected so that tests can move time.
    private final InstantSource clock;
    private final Map<Integer, RunningJob> running = new ConcurrentHashMap<>();
    /**
     * Runs ended before their launch reached this node (job id to restart count and state): the
     * controller's terminate can overtake the launch it sent first. Bounded: the oldest go.
     */
    private final Map<Integer, EarlyEnd> endedBeforeLaunch = new java.util.LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Integer, EarlyEnd> eldest) {
            return size() > 4096;
        }
    };

    private record EarlyEnd(int restartCount, JobState state) {}

    /**
     * Runs that ended here (job id to restart count), kept after their report is delivered and
     * the spool forgets them: a launch the controller sent again because its first answer came
     * too late (a busy node) must not run the job a second time. Bounded, as slurmd's list of
     * finished batch jobs is. Guarded by this launcher's monitor.
     */
    private final Map<Integer, Integer> ranHere = new java.util.LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Integer, Integer> eldest) {
            return size() > 16384;
        }
    };

    private volatile java.util.function.BiConsumer<Integer, String> jobSignals = (job, signal) -> {};
    private volatile List<String> prolog = List.of();
    private volatile List<String> epilog = List.of();
    private volatile CpuBinding.Policy cpuBinding = CpuBinding.Policy.NONE;
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon(true).name("noded-timers").factory());

    private volatile JobConfinement confinement = JobConfinement.none();

    public BatchLauncher(
            String nodeName,
            JobSpool spool,
            int daemonUid,
            Consumer<JobCompleteRequest> completions,
            InstantSource clock)
            throws IOException {
        this.nodeName = nodeName;
        this.spool = spool;
        this.daemonUid = daemonUid;
        this.completions = completions;
        this.clock = requireNonNull(clock, "clock is null");
        this.supervisor = Supervisor.install(spool.root());
    }

    /** Also told whenever a whole job is signalled (its steps' tasks run outside its session). */
    public void onJobSignal(java.util.function.BiConsumer<Integer, String> listener) {
        this.jobSignals = listener;
    }

    /** Whether jobs are bound to their cores' CPUs (slurm.conf TaskPlugin); read at start and reconfigure. */
    public void cpuBinding(CpuBinding.Policy policy) {
        this.cpuBinding = policy;
    }

    /** slurm.conf's {@code Prolog=} and {@code Epilog=} programs, for jobs launched from now on. */
    public void jobScripts(List<String> prologPrograms, List<String> epilogPrograms) {
        this.prolog = List.copyOf(prologPrograms);
        this.epilog = List.copyOf(epilogPrograms);
    }

    public Set<Integer> runningJobIds() {
        return Set.copyOf(running.keySet());
    }

    /** Running job id → the GPU indices it holds here, whole or as MPS/shard share (metrics). */
    /** sstat: what the batch script of the job (task 0) and everything it started use now; empty when it does not run here. */
    public java.util.Optional<dev.sluice.protocol.v1.TaskUsage> batchUsage(int jobId, ProcessUsage reader) {
        RunningJob job = running.get(jobId);
        if (job == null || job.endState != null) {
            return java.util.Optional.empty();
        }
        java.util.Optional<Long> pid = spool.fact(jobId, Supervisor.JOB_PID).map(Long::parseLong);
        return pid.map(p -> reader.task(0, nodeName, p, reader.cpuFreqKhz()));
    }

    public Map<Integer, List<Integer>> runningJobGpus() {
        Map<Integer, List<Integer>> out = new java.util.TreeMap<>();
        running.forEach((id, job) -> out.put(id, job.gpus));
        return out;
    }

    /** @throws IOException when the job cannot be started here (the controller requeues or fails it) */
    public synchronized void launch(LaunchBatchJobRequest request) throws IOException {
        int jobId = request.getJobId();
        Integer ran = ranHere.get(jobId);
        if (ran != null && ran >= request.getRestartCount()) {
            log.info("job {} already ran here; ignoring the repeated launch", jobId);
            return;
        }
        if (running.containsKey(jobId) || spool.knows(jobId)) {
            int earlier = spool.launch(jobId)
                    .map(LaunchBatchJobRequest::getRestartCount)
                    .orElse(request.getRestartCount());
            if (request.getRestartCount() > earlier) {
                // Requeued: the controller retries until the killed run has ended and been reported.
                throw new IOException("the previous run of job " + jobId + " is still ending here");
            }
            log.info("job {} already launched here; ignoring the repeated launch", jobId);
            return;
        }
        JobSpec spec = request.getSpec();
        int uid = spec.getOwner().getUid();
        ProcessBuilder pb = new SupervisedStart(
                        nodeName, spool, supervisor, daemonUid, cpuBinding, prolog, epilog, confinement)
                .prepare(request);
        String workDir = spec.getWorkDir().isEmpty() ? "/tmp" : spec.getWorkDir();
        spool.saveLaunch(request);
        Process process = ForkLock.start(pb);
        RunningJob job = new RunningJob(
                spool,
                jobId,
                process.toHandle(),
                request.getKillWaitSeconds(),
                GresEnvironment.gpuIndices(request.getGresList()),
                request.getRestartCount());
        running.put(jobId, job);
        armTimeLimit(job, request);
        log.info("job {} started under supervisor pid {} (uid {}) in {}", jobId, process.pid(), uid, workDir);
        job.supervisor.onExit().thenAccept(p -> finished(job));
        EarlyEnd early = endedBeforeLaunch.remove(jobId);
        if (early != null && early.restartCount() == request.getRestartCount()) {
            // Its terminate came first: this run ends now, through the usual end and report.
            log.info("job {} was ended ({}) before its launch arrived; ending it", jobId, early.state());
            ending(job, early.state());
        }
    }

    /** The time limit counts the time the job has run: not the time it spent suspended. */
    private void armTimeLimit(RunningJob job, LaunchBatchJobRequest request) {
        long limit = Integer.toUnsignedLong(request.getTimeLimitMinutes());
        if (limit > 0 && SlurmLimits.isLimit(limit) && job.suspendedAt < 0) {
            long ran = Math.max(0, clock.instant().getEpochSecond() - request.getStartTime() - job.suspendedSeconds);
            long delay = Math.max(0, limit * 60 - ran);
            job.limit = timers.schedule(() -> ending(job, JobState.TIMEOUT), delay, TimeUnit.SECONDS);
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
            var request = spool.launch(jobId);
            if (request.isEmpty()) {
                // The daemon stopped before the launch was recorded: nothing ran.
                spool.forget(jobId);
                continue;
            }
            var handle = Supervisor.alive(spool.jobDir(jobId), spool.fact(jobId, Supervisor.SUPERVISOR_PID));
            RunningJob job = RunningJob.recovered(spool, request.get(), handle.orElse(ProcessHandle.current()));
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
                end(job, state);
            } else {
                armTimeLimit(job, request.get());
            }
            handle.get().onExit().thenAccept(p -> finished(job));
        }
    }

    /** scancel and node-down: SIGCONT + SIGTERM to the whole job, SIGKILL after KillWait. */
    /**
     * @param restartCount the run the controller ends; negative: whichever run is here (an
     *     orphan the controller no longer knows)
     */
    public void terminate(int jobId, JobState reason, int restartCount) {
        RunningJob job;
        JobState state = reason == JobState.JOB_STATE_UNSPECIFIED ? JobState.CANCELLED : reason;
        // A launch in progress holds this monitor until the job is in `running`: a cancel that
        // arrives meanwhile (a slow first launch) waits for it instead of missing the job, which
        // would then run to its end while the controller shows it COMPLETING. A cancel that
        // arrives before the launch itself is remembered for that run.
        synchronized (this) {
            job = running.get(jobId);
            if (job == null && restartCount >= 0 && !spool.knows(jobId)) {
                endedBeforeLaunch.put(jobId, new EarlyEnd(restartCount, state));
            }
        }
        if (job != null) {
            ending(job, state);
        }
    }

    /** A first end (not one a restart finishes): announced in the job's error file, then done. */
    private void ending(RunningJob job, JobState state) {
        if (job.endState != null) {
            return;
        }
        try {
            spool.launch(job.jobId)
                    .ifPresent(request -> EndNotice.write(request, nodeName, daemonUid, state, clock.instant()));
        } catch (IOException e) {
            log.warn("job {}: cannot read its launch to announce its end: {}", job.jobId, e.getMessage());
        }
        end(job, state);
    }

    private void end(RunningJob job, JobState state) {
        if (job.endState != null) {
            return;
        }
        job.endState = state;
        markSignalled(job);
        remember(job.jobId, RunningJob.END_STATE, state.name());
        long pgid = job.pgid();
        ProcessSignals.group(pgid, "CONT");
        ProcessSignals.group(pgid, "TERM");
        jobSignals.accept(job.jobId, "TERM");
        timers.schedule(
                () -> {
                    if (job.supervisor.isAlive()) {
                        ProcessSignals.group(pgid, "KILL");
                    }
                    jobSignals.accept(job.jobId, "KILL");
                },
                Math.max(1, job.killWaitSeconds),
                TimeUnit.SECONDS);
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
                    remember(jobId, RunningJob.SUSPENDED_AT, Long.toString(now));
                }
                ProcessSignals.group(job.pgid(), "STOP");
            } else {
                ProcessSignals.group(job.pgid(), "CONT");
                if (job.suspendedAt >= 0) {
                    job.suspendedSeconds += Math.max(0, now - job.suspendedAt);
                    job.suspendedAt = -1;
                    remember(jobId, RunningJob.SUSPENDED_SECONDS, Long.toString(job.suspendedSeconds));
                    remember(jobId, RunningJob.SUSPENDED_AT, "-1");
                    try {
                        spool.launch(jobId).ifPresent(request -> armTimeLimit(job, request));
                    } catch (IOException e) {
                        log.warn("job {}: cannot read its launch to re-arm the time limit: {}", jobId, e.getMessage());
                    }
                }
            }
        }
        return true;
    }

    public boolean signal(int jobId, int signal, boolean batchOnly) {
        RunningJob job = running.get(jobId);
        if (job == null) {
            return false;
        }
        markSignalled(job);
        long pgid = job.pgid();
        String pid = batchOnly ? Long.toString(pgid) : "-" + pgid;
        ProcessSignals.run("kill", "-s", Integer.toString(signal), "--", pid);
        return true;
    }

    private void markSignalled(RunningJob job) {
        if (!job.signalled) {
            job.signalled = true;
            remember(job.jobId, RunningJob.SIGNALLED, "1");
        }
    }

    private void remember(int jobId, String fact, String value) {
        try {
            spool.writeFact(jobId, fact, value);
        } catch (IOException e) {
            log.warn("job {}: cannot record {} in the spool: {}", jobId, fact, e.getMessage());
        }
    }

    /** Jobs go into cgroups from now on (read at start). */
    public void confineWith(JobConfinement confinement) {
        this.confinement = confinement;
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
        if (spool.fact(job.jobId, Supervisor.WAIT_STATUS).isEmpty()) {
            spool.fact(job.jobId, Supervisor.JOB_PID)
                    .ifPresent(pgid -> ProcessSignals.run("kill", "-s", "KILL", "--", "-" + pgid));
        }
        jobSignals.accept(job.jobId, "KILL");
        JobCompleteRequest report = BatchReport.of(spool, nodeName, job, confinement);
        try {
            spool.saveReport(report);
        } catch (IOException e) {
            log.error("cannot save the end of job {} in the spool: {}", job.jobId, e.getMessage());
        }
        synchronized (this) {
            ranHere.put(job.jobId, job.restartCount);
        }
        running.remove(job.jobId);
        log.info(
                "job {} ended: status {} ({})",
                job.jobId,
                report.getExitStatus(),
                report.getEndState() == JobState.JOB_STATE_UNSPECIFIED ? "exit" : report.getEndState());
        completions.accept(report);
    }

    @Override
    public void close() {
        timers.shutdownNow();
    }
}
