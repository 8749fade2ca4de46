package dev.sluice.noded.launch;

import dev.sluice.noded.spool.JobSpool;
import dev.sluice.protocol.v1.JobCompleteRequest;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.protocol.v1.LaunchBatchJobRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * Starts batch scripts and supervises them to the end: as the submitting user (dropping
 * privileges with {@code setpriv} when the daemon is root), in a session of their own so that
 * every process of the job can be signalled together, with output files opened by the user.
 * Enforces the time limit (SIGTERM, then SIGKILL after KillWait) and reports each end once,
 * durably, through the completion sink.
 *
 * <p>Launches are idempotent per job id: the controller may resend one after a restart.
 */
public final class BatchLauncher implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(BatchLauncher.class);

    private final String nodeName;
    private final JobSpool spool;
    private final Consumer<JobCompleteRequest> completions;
    private final int daemonUid;
    private final Map<Integer, RunningJob> running = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon(true).name("noded-timers").factory());

    public BatchLauncher(String nodeName, JobSpool spool, int daemonUid, Consumer<JobCompleteRequest> completions) {
        this.nodeName = nodeName;
        this.spool = spool;
        this.daemonUid = daemonUid;
        this.completions = completions;
    }

    private static final class RunningJob {
        final int jobId;
        final Process process;
        final int killWaitSeconds;
        volatile JobState endState;
        volatile boolean signalled;
        volatile ScheduledFuture<?> limit;

        RunningJob(int jobId, Process process, int killWaitSeconds) {
            this.jobId = jobId;
            this.process = process;
            this.killWaitSeconds = killWaitSeconds;
        }
    }

    public Set<Integer> runningJobIds() {
        return Set.copyOf(running.keySet());
    }

    /** @throws IOException when the job cannot be started here (the controller requeues or fails it) */
    public synchronized void launch(LaunchBatchJobRequest request) throws IOException {
        int jobId = request.getJobId();
        if (running.containsKey(jobId) || spool.knows(jobId)) {
            log.info("job {} already launched here; ignoring the repeated launch", jobId);
            return;
        }
        JobSpec spec = request.getSpec();
        int uid = spec.getOwner().getUid();
        if (daemonUid != 0 && uid != daemonUid) {
            throw new IOException("sluice-noded runs as uid " + daemonUid + " and cannot run jobs of uid " + uid
                    + " (run it as root to serve every user)");
        }
        Path script = spool.writeScript(jobId, spec.getScript());
        String workDir = spec.getWorkDir().isEmpty() ? "/tmp" : spec.getWorkDir();
        if (!Files.isDirectory(Path.of(workDir))) {
            log.warn("job {}: work directory {} does not exist here, using /tmp", jobId, workDir);
            workDir = "/tmp";
        }
        if (daemonUid == 0) {
            chown(script.getParent(), uid, spec.getOwner().getGid());
            chown(script, uid, spec.getOwner().getGid());
        }
        OutputPattern.Context ctx = new OutputPattern.Context(
                jobId, spec.getName(), spec.getOwner().getUserName(), nodeName, 0, 0, 0, "batch");
        String out = resolve(workDir, spec.getStdOut().isEmpty() ? "slurm-%j.out" : spec.getStdOut(), ctx);
        String err = spec.getStdErr().isEmpty() ? out : resolve(workDir, spec.getStdErr(), ctx);
        String in = spec.getStdIn().isEmpty() ? "/dev/null" : resolve(workDir, spec.getStdIn(), ctx);
        boolean append = spec.getOpenMode().equalsIgnoreCase("append");

        List<String> command = new ArrayList<>();
        command.add("setsid");
        if (daemonUid == 0 && uid != 0) {
            command.addAll(List.of(
                    "setpriv", "--reuid=" + uid, "--regid=" + spec.getOwner().getGid(), "--init-groups", "--"));
        }
        // The shell opens the output files, so they belong to the job's user.
        String redirect = append ? ">>" : ">";
        String errRedirect = err.equals(out) ? "2>&1" : "2" + redirect + "\"$2\"";
        command.addAll(List.of(
                "/bin/sh",
                "-c",
                "o=$1; e=$2; i=$3; shift 3; exec \"$@\" <\"$i\" " + redirect + "\"$o\" "
                        + errRedirect.replace("$2", "$e"),
                "slurmstepd",
                out,
                err,
                in,
                script.toString()));
        command.addAll(spec.getScriptArgsList());

        ProcessBuilder pb =
                new ProcessBuilder(command).directory(Path.of(workDir).toFile());
        Map<String, String> env = pb.environment();
        env.clear();
        env.putAll(BatchEnvironment.build(exported(spec), facts(request, nodeName)));
        env.putAll(GresEnvironment.build(
                request.getGresList(),
                request.getMpsPerGpuMap().entrySet().stream()
                        .collect(java.util.stream.Collectors.toMap(e -> e.getKey(), e -> e.getValue()))));
        pb.redirectErrorStream(true);
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Process process = pb.start();
        RunningJob job = new RunningJob(jobId, process, request.getKillWaitSeconds());
        running.put(jobId, job);
        long limit = Integer.toUnsignedLong(request.getTimeLimitMinutes());
        if (limit > 0 && limit < 0xfffffffeL) {
            long elapsed = Math.max(0, System.currentTimeMillis() / 1000 - request.getStartTime());
            long delay = Math.max(0, limit * 60 - elapsed);
            job.limit = timers.schedule(() -> end(job, JobState.TIMEOUT), delay, TimeUnit.SECONDS);
        }
        log.info("job {} started as pid {} (uid {}) in {}", jobId, process.pid(), uid, workDir);
        process.onExit().thenAccept(p -> finished(job));
    }

    private static Map<String, String> exported(JobSpec spec) {
        return spec.getEnvironmentMap();
    }

    private static BatchEnvironment.JobFacts facts(LaunchBatchJobRequest r, String nodeName) {
        JobSpec s = r.getSpec();
        return new BatchEnvironment.JobFacts(
                r.getJobId(),
                s.getName(),
                r.getNodeList(),
                r.getNumNodes(),
                r.getNumTasks(),
                r.getCpusOnNode(),
                s.getCpusPerTask(),
                r.getJobCpusPerNode(),
                r.getTasksPerNode(),
                r.getMemPerNodeMb(),
                s.getMemPerCpuMb(),
                r.getPartition(),
                s.getAccount(),
                s.getQos(),
                s.getWorkDir(),
                s.getSubmitHost(),
                r.getClusterName(),
                nodeName,
                s.getOwner().getUid(),
                s.getOwner().getGid(),
                s.getOwner().getUserName());
    }

    private static String resolve(String workDir, String pattern, OutputPattern.Context ctx) {
        String expanded = OutputPattern.expand(pattern, ctx);
        return expanded.startsWith("/")
                ? expanded
                : Path.of(workDir).resolve(expanded).toString();
    }

    private static void chown(Path path, int uid, int gid) throws IOException {
        try {
            Process p = new ProcessBuilder("chown", uid + ":" + gid, path.toString()).start();
            if (p.waitFor() != 0) {
                throw new IOException("chown of " + path + " failed");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    /** scancel and node-down: SIGCONT + SIGTERM to the whole job, SIGKILL after KillWait. */
    public void terminate(int jobId, JobState reason) {
        RunningJob job = running.get(jobId);
        if (job != null) {
            end(job, reason == JobState.JOB_STATE_UNSPECIFIED ? JobState.CANCELLED : reason);
        }
    }

    private void end(RunningJob job, JobState state) {
        if (job.endState != null) {
            return;
        }
        job.endState = state;
        job.signalled = true;
        signalGroup(job.process.pid(), "CONT");
        signalGroup(job.process.pid(), "TERM");
        timers.schedule(
                () -> {
                    if (job.process.isAlive()) {
                        signalGroup(job.process.pid(), "KILL");
                    }
                },
                Math.max(1, job.killWaitSeconds),
                TimeUnit.SECONDS);
    }

    public boolean signal(int jobId, int signal, boolean batchOnly) {
        RunningJob job = running.get(jobId);
        if (job == null) {
            return false;
        }
        job.signalled = true;
        String pid = batchOnly ? Long.toString(job.process.pid()) : "-" + job.process.pid();
        run("kill", "-s", Integer.toString(signal), "--", pid);
        return true;
    }

    private static void signalGroup(long pgid, String signal) {
        run("kill", "-s", signal, "--", "-" + pgid);
    }

    private static void run(String... command) {
        try {
            new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start()
                    .waitFor();
        } catch (IOException e) {
            log.warn("{} failed: {}", String.join(" ", command), e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void finished(RunningJob job) {
        if (job.limit != null) {
            job.limit.cancel(false);
        }
        // Whatever the script left behind in its session goes with it.
        signalGroup(job.process.pid(), "KILL");
        int value = job.process.exitValue();
        // The JVM reports death by signal N as 128 + N; Slurm keeps the raw wait status.
        int status = job.signalled && value > 128 && value < 128 + 65 ? value - 128 : (value & 0xff) << 8;
        JobCompleteRequest.Builder report = JobCompleteRequest.newBuilder()
                .setNodeName(nodeName)
                .setJobId(job.jobId)
                .setExitStatus(status);
        if (job.endState != null) {
            report.setEndState(job.endState);
        }
        try {
            spool.saveReport(report.build());
        } catch (IOException e) {
            log.error("cannot save the end of job {} in the spool: {}", job.jobId, e.getMessage());
        }
        running.remove(job.jobId);
        log.info("job {} ended: status {} ({})", job.jobId, status, job.endState == null ? "exit" : job.endState);
        completions.accept(report.build());
    }

    @Override
    public void close() {
        timers.shutdownNow();
    }
}
