package dev.sluice.noded.launch;

import com.google.protobuf.ByteString;
import dev.sluice.noded.confine.Confinement;
import dev.sluice.noded.job.StepLaunch;
import dev.sluice.noded.spool.ForkLock;
import dev.sluice.noded.spool.JobSpool;
import dev.sluice.protocol.Frames;
import dev.sluice.protocol.v1.StepCancelled;
import dev.sluice.protocol.v1.StepIo;
import dev.sluice.protocol.v1.StepIoHello;
import dev.sluice.protocol.v1.TaskExit;
import dev.sluice.protocol.v1.TaskOutput;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs this node's tasks of a job step (what slurmstepd does for {@code srun}): each task as the
 * job's user, in a session of its own, with the step's environment; its output travels live to
 * srun over the socket srun listens on (this node connects to it, as Slurm's stepd connects to
 * srun's I/O port), followed by each task's exit status. A signal frame from srun (Ctrl-C) goes
 * to every task of the step here. Steps are not re-adopted after a daemon restart: their output
 * flows through the daemon. Built whole from the {@link LaunchSetup} it shares with the batch
 * launcher; the CPU binding is read from its current policy at each launch.
 */
public final class StepLauncher {
    private static final Logger log = LoggerFactory.getLogger(StepLauncher.class);
    private static final int CONNECT_TIMEOUT_MS = 10_000;

    private final String nodeName;
    private final JobSpool spool;
    private final UserEnvironment userEnvironment;
    private final int daemonUid;
    private final InstantSource clock;
    private final java.util.function.Supplier<LaunchPolicy> policy;
    private final JobConfinement confinement;
    /** Job id → the process groups of its step tasks running here. */
    private final Map<Integer, Set<Long>> tasksByJob = new ConcurrentHashMap<>();
    /** Steps whose tasks run here, by {@code jobid.stepid}: their tasks and srun's stream. */
    private final Map<String, Active> runningSteps = new ConcurrentHashMap<>();

    private record Active(int stepId, OutputStream out, List<Process> tasks, List<Integer> taskIds) {}

    /**
     * @param setup its spool holds each task's environment file while the task starts (job
     *     directories); its clock gives the time a cancelled step's line names; its confinement
     *     the step's cgroups under their job's
     */
    public StepLauncher(LaunchSetup setup) {
        this.nodeName = setup.nodeName();
        this.daemonUid = setup.daemonUid();
        this.spool = setup.spool();
        this.clock = setup.clock();
        this.policy = setup.policy();
        this.confinement = setup.confinement();
        this.userEnvironment = new UserEnvironment(Supervisor.perlRuns());
    }

    /**
     * sstat: what the tasks of the job's steps running here use now, by step id, each task with
     * its global id.
     */
    public java.util.Map<Integer, List<dev.sluice.noded.job.TaskUsage>> usage(int jobId, ProcessUsage reader) {
        java.util.Map<Integer, List<dev.sluice.noded.job.TaskUsage>> out = new java.util.TreeMap<>();
        long freq = reader.cpuFreqKhz();
        runningSteps.forEach((key, step) -> {
            if (!key.startsWith(jobId + ".")) {
                return;
            }
            List<dev.sluice.noded.job.TaskUsage> tasks = new ArrayList<>();
            for (int local = 0; local < step.tasks().size(); local++) {
                Process p = step.tasks().get(local);
                if (p.isAlive()) {
                    tasks.add(reader.task(step.taskIds().get(local), nodeName, p.pid(), freq));
                }
            }
            out.put(step.stepId(), tasks);
        });
        return out;
    }

    /** Starts the tasks and returns; output, exits and signals are served on a thread of the step. */
    public void launch(StepLaunch request) throws IOException {
        int uid = request.owner().uid();
        if (daemonUid != 0 && uid != daemonUid) {
            throw new IOException("sluice-noded runs as uid " + daemonUid + " and cannot run steps of uid " + uid);
        }
        if (request.argv().isEmpty()) {
            throw new IOException("a step needs a command");
        }
        Socket socket = new Socket();
        socket.connect(
                new InetSocketAddress(request.srun().ioHost(), request.srun().ioPort()), CONNECT_TIMEOUT_MS);
        socket.setTcpNoDelay(true);
        OutputStream out = new BufferedOutputStream(socket.getOutputStream());
        write(
                out,
                StepIo.newBuilder()
                        .setHello(StepIoHello.newBuilder()
                                .setJobId(request.jobId())
                                .setStepId(request.stepId())
                                .setNodeId(request.tasks().nodeId())
                                .setNodeName(nodeName)
                                .addAllTaskIds(request.tasks().taskIds()))
                        .build());
        List<Process> tasks = new ArrayList<>();
        List<Path> cgroups = confinement.step(
                request.jobId(),
                request.stepId(),
                request.onNode().memoryMb(),
                request.onNode().cpus(),
                request.onNode().cores(),
                request.onNode().gres());
        CpuBinding.Policy cpuBinding = policy.get().cpuBinding();
        try {
            for (int local = 0; local < request.tasks().taskIds().size(); local++) {
                tasks.add(start(request, local, cgroups, cpuBinding));
            }
        } catch (IOException e) {
            tasks.forEach(p -> signal(p.pid(), "KILL"));
            socket.close();
            confinement.stepEnded(request.jobId(), request.stepId());
            throw e;
        }
        Set<Long> groups = tasksByJob.computeIfAbsent(request.jobId(), k -> ConcurrentHashMap.newKeySet());
        tasks.forEach(p -> groups.add(p.pid()));
        runningSteps.put(
                request.jobId() + "." + request.stepId(),
                new Active(request.stepId(), out, tasks, request.tasks().taskIds()));
        Thread.ofVirtual()
                .name("step-" + request.jobId() + "." + request.stepId())
                .start(() -> serve(request, socket, out, tasks, groups));
    }

    private Process start(StepLaunch r, int local, List<Path> cgroups, CpuBinding.Policy cpuBinding)
            throws IOException {
        List<String> command = new ArrayList<>(cpuBinding.prefix(r.onNode().cores()));
        command.add("setsid");
        int uid = r.owner().uid();
        command.addAll(asOwner(r));
        String workDir = r.runDir();
        // As for batch jobs (BatchLauncher): root's programs get UserEnvironment.ROOT, and the
        // task's variables are loaded from a file only after setpriv, by the task's user.
        Map<String, String> taskEnv = StepEnvironment.build(r, local, nodeName);
        Path envFile = spool.writeStepEnvironment(
                r.jobId(),
                r.stepId(),
                local,
                userEnvironment.encode(taskEnv),
                daemonUid == 0 ? Optional.of(new JobSpool.Owner(uid, r.owner().gid())) : Optional.empty());
        List<String> task = userEnvironment.loading(envFile, UserShell.inWorkDir(workDir, nodeName, r.argv()));
        command.addAll(PtyTask.runs(r, local) ? PtyTask.wrap(r, task) : task);
        ProcessBuilder pb = new ProcessBuilder(Confinement.joining(cgroups, command)).directory(new File("/"));
        pb.environment().clear();
        pb.environment().putAll(UserEnvironment.ROOT);
        pb.redirectInput(
                TaskInputs.reads(r, local)
                        ? ProcessBuilder.Redirect.PIPE
                        : ProcessBuilder.Redirect.from(new File("/dev/null")));
        if (PtyTask.silenced(r, local)) {
            pb.redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
        }
        Process p = ForkLock.start(pb);
        // Read by the loader at once; gone with the task (the job directory outlives steps).
        p.onExit().thenRun(() -> {
            try {
                Files.deleteIfExists(envFile);
            } catch (IOException e) {
                // the job's directory goes at the job's end
            }
        });
        return p;
    }

    private void serve(StepLaunch r, Socket socket, OutputStream out, List<Process> tasks, Set<Long> groups) {
        TaskInputs inputs = TaskInputs.of(r, tasks);
        Thread signals = Thread.ofVirtual().start(() -> fromSrun(r, socket, tasks, inputs));
        List<Thread> pumps = new ArrayList<>();
        for (int local = 0; local < tasks.size(); local++) {
            int taskId = r.tasks().taskIds().get(local);
            Process p = tasks.get(local);
            pumps.add(Thread.ofVirtual().start(() -> pump(out, taskId, 1, p.getInputStream())));
            pumps.add(Thread.ofVirtual().start(() -> pump(out, taskId, 2, p.getErrorStream())));
        }
        try {
            // Each exit is reported when it happens, not in task order: srun's -K and -W act on
            // the first task to end while the others still run.
            List<Thread> waiters = new ArrayList<>();
            for (int local = 0; local < tasks.size(); local++) {
                int l = local;
                waiters.add(Thread.ofVirtual().start(() -> awaitTask(r, out, tasks, l, pumps, groups)));
            }
            for (Thread w : waiters) {
                w.join();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
            signals.interrupt();
            runningSteps.remove(r.jobId() + "." + r.stepId());
            confinement.stepEnded(r.jobId(), r.stepId());
        }
    }

    private static void awaitTask(
            StepLaunch r, OutputStream out, List<Process> tasks, int local, List<Thread> pumps, Set<Long> groups) {
        Process p = tasks.get(local);
        try {
            int value = p.waitFor();
            // A task's processes go with it, as they do when a task of Slurm's ends; what
            // they wrote stays readable in the pipes, and a process left holding a pipe
            // would otherwise keep the step open.
            signal(p.pid(), "KILL");
            groups.remove(p.pid());
            pumps.get(2 * local).join();
            pumps.get(2 * local + 1).join();
            int status = value > 128 && value < 128 + 65 ? value - 128 : (value & 0xff) << 8;
            write(
                    out,
                    StepIo.newBuilder()
                            .setExit(TaskExit.newBuilder()
                                    .setTaskId(r.tasks().taskIds().get(local))
                                    .setStatus(status))
                            .build());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            log.warn("step {}.{}: srun went away: {}", r.jobId(), r.stepId(), e.getMessage());
            tasks.forEach(t -> signal(t.pid(), "KILL"));
        }
    }

    /** How many steps have tasks running here now (metrics). */
    public int runningSteps() {
        return runningSteps.size();
    }

    private static void pump(OutputStream out, int taskId, int stream, InputStream in) {
        byte[] buf = new byte[8192];
        try (in) {
            int n;
            while ((n = in.read(buf)) > 0) {
                write(
                        out,
                        StepIo.newBuilder()
                                .setOutput(TaskOutput.newBuilder()
                                        .setTaskId(taskId)
                                        .setStream(stream)
                                        .setData(ByteString.copyFrom(buf, 0, n)))
                                .build());
            }
        } catch (IOException e) {
            // srun or the task went away; the exit path reports it
        }
    }

    /** What srun sends: signals for every task here (Ctrl-C), and its standard input. */
    /** What runs a program as the step's user: {@code setpriv} when this daemon is root. */
    private List<String> asOwner(StepLaunch r) {
        int uid = r.owner().uid();
        if (daemonUid == 0 && uid != 0) {
            return List.of("setpriv", "--reuid=" + uid, "--regid=" + r.owner().gid(), "--init-groups", "--");
        }
        return List.of();
    }

    private void fromSrun(StepLaunch r, Socket socket, List<Process> tasks, TaskInputs inputs) {
        try (inputs) {
            InputStream in = new BufferedInputStream(socket.getInputStream());
            while (true) {
                StepIo frame = Frames.read(StepIo.parser(), in);
                if (frame.hasSignal()) {
                    for (Process p : tasks) {
                        signal(p.pid(), Integer.toString(frame.getSignal()));
                    }
                } else if (frame.hasInput()) {
                    inputs.accept(frame.getInput());
                } else if (frame.hasResize()) {
                    PtyTask.resize(
                            r,
                            tasks,
                            new StepLaunch.Pty(
                                    frame.getResize().getRows(),
                                    frame.getResize().getCols()),
                            asOwner(r));
                }
            }
        } catch (IOException e) {
            // the step ended or srun closed its side
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The output stream is shared by every pump of the step: one frame at a time. */
    private static void write(OutputStream out, StepIo frame) throws IOException {
        synchronized (out) {
            Frames.write(frame, out);
            out.flush();
        }
    }

    /**
     * Signals one step's tasks here ({@code scancel [-s SIG] J.S}). A cancelled step's srun gets
     * slurmstepd's line first, then the tasks are killed.
     */
    public void signalStep(int jobId, int stepId, int signal, boolean cancel) {
        Active step = runningSteps.get(jobId + "." + stepId);
        if (step == null) {
            return;
        }
        if (cancel) {
            String notice = EndNotice.stepCancelled(nodeName, jobId, stepId, clock.instant(), ZoneId.systemDefault());
            try {
                write(
                        step.out(),
                        StepIo.newBuilder()
                                .setCancelled(StepCancelled.newBuilder().setNotice(notice))
                                .build());
            } catch (IOException e) {
                log.warn("step {}.{}: srun went away before its cancellation: {}", jobId, stepId, e.getMessage());
            }
        }
        step.tasks().forEach(p -> signal(p.pid(), Integer.toString(signal)));
    }

    /** Signals every step task of a job here (the job ends: time limit, scancel). */
    public void signalJob(int jobId, String signal) {
        Set<Long> groups = tasksByJob.getOrDefault(jobId, Set.of());
        groups.forEach(pgid -> signal(pgid, signal));
        if (signal.equals("KILL")) {
            tasksByJob.remove(jobId);
        }
    }

    private static void signal(long pgid, String signal) {
        ProcessSignals.group(pgid, signal);
    }
}
