package dev.sluice.cli.command.srun;

import dev.sluice.protocol.Frames;
import dev.sluice.protocol.v1.PtySize;
import dev.sluice.protocol.v1.StepIo;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * srun's end of a step's I/O: a listening socket each node of the step connects to, sending
 * {@code StepIo} frames (hello, task output, task exits). Output goes to {@link StepOutput} as it
 * arrives (the terminal, or {@code -o/-e} files). {@code -K/--kill-on-bad-exit} and
 * {@code -W/--wait} act here, on the exits as they come, as Slurm's srun does: the first bad exit,
 * or the first exit plus the wait, signals every task still running.
 */
final class StepIoServer implements AutoCloseable {
    private static final int ACCEPT_TIMEOUT_MS = 60_000;
    private static final int SIGKILL = 9;
    private static final int SIGTERM = 15;

    /**
     * What ends a step early.
     *
     * @param waitSeconds {@code -W}: seconds after the first exit before the rest are killed; -1 none
     * @param killWaitSeconds slurm.conf KillWait, named in Slurm's "Job step aborted" line
     */
    record ExitPolicy(boolean killOnBadExit, int waitSeconds, int killWaitSeconds) {
        static final ExitPolicy NONE = new ExitPolicy(false, -1, 30);
    }

    private final ServerSocket server;
    private final StepOutput output;
    private final PrintStream err;
    private final ExitPolicy policy;
    private final List<Socket> nodes = new ArrayList<>();
    private final Map<Integer, Integer> exits = new ConcurrentHashMap<>();
    private final AtomicBoolean terminated = new AtomicBoolean();
    private final AtomicBoolean aborted = new AtomicBoolean();
    private volatile String stepName = "";
    private volatile int numTasks;
    private int stepStatus;
    private Thread waitTimer;
    /** Each node's tasks, from its hello. */
    private final Map<Socket, List<Integer>> tasksOf = new ConcurrentHashMap<>();

    private StepInput input = StepInput.NONE;
    private volatile CountDownLatch hellos = new CountDownLatch(0);

    private StepIoServer(ServerSocket server, StepOutput output, PrintStream err, ExitPolicy policy) {
        this.server = server;
        this.output = output;
        this.err = err;
        this.policy = policy;
    }

    static StepIoServer open(StepOutput output, PrintStream err, ExitPolicy policy) throws IOException {
        ServerSocket s = new ServerSocket(0, 64, InetAddress.getByName("0.0.0.0"));
        s.setSoTimeout(ACCEPT_TIMEOUT_MS);
        return new StepIoServer(s, output, err, policy);
    }

    /** Where srun's standard input goes ({@code -i}); sent once every node has said hello. */
    void forwardInput(StepInput input) {
        this.input = input;
    }

    int port() {
        return server.getLocalPort();
    }

    /** The name nodes of the step reach this host by: its host name. */
    String host(String hostName) {
        return hostName;
    }

    void pause(long millis) throws IOException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
    }

    /** Serves every node of the step until every task has exited; returns srun's exit code. */
    int serve(int numNodes, int numTasks, String stepName) throws IOException {
        this.numTasks = numTasks;
        this.stepName = stepName;
        this.hellos = new CountDownLatch(numNodes);
        output.tasks(numTasks);
        List<Thread> readers = new ArrayList<>();
        for (int i = 0; i < numNodes; i++) {
            Socket node;
            try {
                node = server.accept();
            } catch (SocketTimeoutException e) {
                throw new IOException("only " + i + " of " + numNodes + " nodes of the step connected");
            }
            synchronized (nodes) {
                nodes.add(node);
            }
            readers.add(Thread.ofVirtual().start(() -> read(node)));
        }
        if (input.forwards()) {
            Thread.ofVirtual().name("srun-stdin").start(() -> input.pump(tasksOf, hellos));
        }
        for (Thread t : readers) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted");
            }
        }
        if (waitTimer != null) {
            waitTimer.interrupt();
        }
        if (terminated.get() && policy.killOnBadExit()) {
            err.println("srun: Force Terminated StepId=" + stepName);
        }
        int code = 0;
        int worst = 0;
        for (int task = 0; task < numTasks; task++) {
            Integer status = exits.get(task);
            if (status == null) {
                err.println("srun: error: task " + task + ": no exit status (its node went away)");
                status = 1 << 8;
            }
            if (exitCode(status) > code) {
                code = exitCode(status);
                worst = status;
            }
        }
        output.flush();
        err.flush();
        stepStatus = output.openFailed() ? 1 << 8 : worst;
        return output.openFailed() ? 1 : code;
    }

    /**
     * After {@link #serve}: the step's wait status for the controller, the worst task's (a task
     * killed by signal 9 is {@code 0:9} in sacct, not exit code 137).
     */
    int stepStatus() {
        return stepStatus;
    }

    private void read(Socket node) {
        String name = "?";
        int nodeId = 0;
        try (node) {
            InputStream in = new BufferedInputStream(node.getInputStream());
            while (true) {
                StepIo frame = Frames.read(StepIo.parser(), in);
                switch (frame.getBodyCase()) {
                    case HELLO -> {
                        name = frame.getHello().getNodeName();
                        nodeId = frame.getHello().getNodeId();
                        tasksOf.put(node, frame.getHello().getTaskIdsList());
                        hellos.countDown();
                        for (int task : frame.getHello().getTaskIdsList()) {
                            output.started(task, name, nodeId);
                        }
                        if (output.openFailed() && terminated.compareAndSet(false, true)) {
                            signalAll(SIGKILL);
                        }
                    }
                    case OUTPUT ->
                        output.write(
                                frame.getOutput().getTaskId(),
                                frame.getOutput().getStream(),
                                frame.getOutput().getData().toByteArray(),
                                name,
                                nodeId);
                    case EXIT -> {
                        int task = frame.getExit().getTaskId();
                        int status = frame.getExit().getStatus();
                        output.ended(task, name, nodeId);
                        boolean first = exits.isEmpty();
                        exits.put(task, status);
                        report(name, task, status);
                        afterExit(status, first);
                    }
                    case CANCELLED -> cancelled(frame.getCancelled().getNotice());
                    default -> {}
                }
            }
        } catch (IOException e) {
            // the node closed the stream: its tasks are done (or gone)
        }
    }

    /** scancel J.S: each node's slurmstepd line, and once srun's own, as Slurm's srun prints them. */
    private void cancelled(String notice) {
        synchronized (this) {
            err.println(notice);
            if (aborted.compareAndSet(false, true)) {
                err.println("srun: Job step aborted: Waiting up to " + (policy.killWaitSeconds() + 2)
                        + " seconds for job step to finish.");
            }
            err.flush();
        }
    }

    private void afterExit(int status, boolean first) {
        if (policy.killOnBadExit() && status != 0 && terminated.compareAndSet(false, true)) {
            synchronized (this) {
                err.println("srun: launch/slurm: _step_signal: Terminating StepId=" + stepName);
                err.flush();
            }
            signalAll(SIGTERM);
        }
        if (policy.waitSeconds() >= 0 && first) {
            waitTimer = Thread.ofVirtual().start(this::waitThenKill);
        }
    }

    /** {@code -W}: what Slurm's srun prints when tasks are still running that long after the first exit. */
    private void waitThenKill() {
        try {
            Thread.sleep(policy.waitSeconds() * 1000L);
        } catch (InterruptedException e) {
            return;
        }
        if (exits.size() >= numTasks) {
            return;
        }
        synchronized (this) {
            err.println("srun: First task exited " + policy.waitSeconds() + "s ago");
            for (String line : taskStates()) {
                err.println("srun: StepId=" + stepName + " " + line);
            }
            err.println("srun: launch/slurm: _step_signal: Terminating StepId=" + stepName);
            err.println("srun: Job step aborted: Waiting up to " + (policy.killWaitSeconds() + 2)
                    + " seconds for job step to finish.");
            err.flush();
        }
        terminated.set(true);
        signalAll(SIGKILL);
    }

    /** {@code task 0-2: running}, {@code task 3: exited}: runs of tasks in one state. */
    private List<String> taskStates() {
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int t = 1; t <= numTasks; t++) {
            if (t == numTasks || exits.containsKey(t) != exits.containsKey(start)) {
                String range = t - 1 == start ? Integer.toString(start) : start + "-" + (t - 1);
                out.add("task " + range + ": " + (exits.containsKey(start) ? "exited" : "running"));
                start = t;
            }
        }
        return out;
    }

    private void report(String node, int task, int status) {
        if (output.openFailed()) {
            // Those tasks were never meant to run; the file's error said why.
            return;
        }
        synchronized (this) {
            if ((status & 0x7f) != 0) {
                err.println("srun: error: " + node + ": task " + task + ": " + signalName(status & 0x7f));
            } else if (status >> 8 != 0) {
                err.println("srun: error: " + node + ": task " + task + ": Exited with exit code " + (status >> 8));
            }
            err.flush();
        }
    }

    private static String signalName(int signal) {
        return switch (signal) {
            case 2 -> "Interrupt";
            case 9 -> "Killed";
            case 15 -> "Terminated";
            default -> "Killed by signal " + signal;
        };
    }

    /** srun's exit: the highest exit code of its tasks, 128 + N for a task killed by signal N. */
    static int exitCode(int status) {
        int signal = status & 0x7f;
        return signal != 0 ? 128 + signal : (status >> 8) & 0xff;
    }

    /** Ctrl-C: every node of the step passes the signal to its tasks. */
    void signalAll(int signal) {
        synchronized (nodes) {
            for (Socket node : nodes) {
                try {
                    send(node, StepIo.newBuilder().setSignal(signal).build());
                } catch (IOException e) {
                    // that node is done already
                }
            }
        }
    }

    /** srun's terminal changed size (--pty): the node of task 0 resizes that task's terminal. */
    void resize(PtySize size) {
        tasksOf.forEach((node, tasks) -> {
            if (tasks.contains(0)) {
                try {
                    send(node, StepIo.newBuilder().setResize(size).build());
                } catch (IOException e) {
                    // the task is done already
                }
            }
        });
    }

    /** One frame to a node; srun's input and its signals share the socket. */
    static void send(Socket node, StepIo frame) throws IOException {
        synchronized (node) {
            OutputStream o = new BufferedOutputStream(node.getOutputStream());
            Frames.write(frame, o);
            o.flush();
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
