package dev.sluice.cli.testing;

import com.google.protobuf.ByteString;
import dev.sluice.protocol.Frames;
import dev.sluice.protocol.v1.CreateStepRequest;
import dev.sluice.protocol.v1.StepIo;
import dev.sluice.protocol.v1.StepIoHello;
import dev.sluice.protocol.v1.TaskExit;
import dev.sluice.protocol.v1.TaskOutput;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A node daemon stand-in for srun's tests: given a step, it connects to srun's I/O socket as a
 * node does and runs each task as a real local process (the step's argv, environment and working
 * directory, {@code SLURM_PROCID} set), relaying its output and exit as {@code StepIo} frames.
 * A signal frame from srun (Ctrl-C, {@code -K}, {@code -W}) goes to every task still running.
 */
public final class FakeStepNode {
    private final List<Integer> signals = new CopyOnWriteArrayList<>();

    /** Signals srun sent, in order. */
    public List<Integer> signals() {
        return List.copyOf(signals);
    }

    /** Runs the step's tasks on a thread of its own; returns at once. */
    public void start(CreateStepRequest step, int stepId, int numTasks) {
        Thread.ofVirtual().start(() -> {
            try {
                run(step, stepId, numTasks);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private void run(CreateStepRequest step, int stepId, int numTasks) throws IOException {
        try (Socket s = new Socket(step.getIoHost(), step.getIoPort())) {
            OutputStream out = s.getOutputStream();
            List<Integer> ids = new ArrayList<>();
            for (int t = 0; t < numTasks; t++) {
                ids.add(t);
            }
            send(
                    out,
                    StepIo.newBuilder()
                            .setHello(StepIoHello.newBuilder()
                                    .setJobId(step.getJobId())
                                    .setStepId(stepId)
                                    .setNodeId(0)
                                    .setNodeName("n1")
                                    .addAllTaskIds(ids))
                            .build());
            List<Process> tasks = new ArrayList<>();
            for (int t = 0; t < numTasks; t++) {
                Map<String, String> env = new TreeMap<>(step.getEnvironmentMap());
                env.put("SLURM_PROCID", Integer.toString(t));
                env.put("SLURM_STEP_ID", Integer.toString(stepId));
                ProcessBuilder pb = new ProcessBuilder(step.getArgvList())
                        .directory(Path.of(step.getWorkDir()).toFile());
                pb.environment().clear();
                pb.environment().putAll(env);
                tasks.add(pb.start());
            }
            Thread.ofVirtual().start(() -> relaySignals(s, tasks));
            List<Thread> pumps = new ArrayList<>();
            for (int t = 0; t < numTasks; t++) {
                int task = t;
                Process p = tasks.get(t);
                pumps.add(Thread.ofVirtual().start(() -> pump(out, task, 1, p.getInputStream())));
                pumps.add(Thread.ofVirtual().start(() -> pump(out, task, 2, p.getErrorStream())));
            }
            List<Thread> waits = new ArrayList<>();
            for (int t = 0; t < numTasks; t++) {
                int task = t;
                Process p = tasks.get(t);
                waits.add(Thread.ofVirtual().start(() -> {
                    try {
                        int code = p.waitFor();
                        join(pumps.get(2 * task));
                        join(pumps.get(2 * task + 1));
                        // A task ended by a signal: the wait status carries the signal, not 128+N.
                        int status = killedBy(code) ? code - 128 : code << 8;
                        send(
                                out,
                                StepIo.newBuilder()
                                        .setExit(TaskExit.newBuilder()
                                                .setTaskId(task)
                                                .setStatus(status))
                                        .build());
                    } catch (InterruptedException | IOException e) {
                        // srun went away
                    }
                }));
            }
            for (Thread w : waits) {
                join(w);
            }
        }
    }

    private boolean killedBy(int code) {
        return signals.contains(code - 128);
    }

    private void relaySignals(Socket s, List<Process> tasks) {
        try {
            InputStream in = s.getInputStream();
            while (true) {
                StepIo frame = Frames.read(StepIo.parser(), in);
                if (frame.getBodyCase() == StepIo.BodyCase.SIGNAL) {
                    int sig = frame.getSignal();
                    signals.add(sig);
                    for (Process p : tasks) {
                        if (p.isAlive()) {
                            new ProcessBuilder("kill", "-" + sig, Long.toString(p.pid()))
                                    .start()
                                    .waitFor();
                        }
                    }
                }
            }
        } catch (IOException | InterruptedException e) {
            // the step is over
        }
    }

    private static void pump(OutputStream out, int task, int stream, InputStream in) {
        byte[] buf = new byte[4096];
        try (in) {
            int n;
            while ((n = in.read(buf)) > 0) {
                send(
                        out,
                        StepIo.newBuilder()
                                .setOutput(TaskOutput.newBuilder()
                                        .setTaskId(task)
                                        .setStream(stream)
                                        .setData(ByteString.copyFrom(buf, 0, n)))
                                .build());
            }
        } catch (IOException e) {
            // the process or srun went away
        }
    }

    private static void send(OutputStream out, StepIo frame) throws IOException {
        synchronized (out) {
            Frames.write(frame, out);
            out.flush();
        }
    }

    private static void join(Thread t) {
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
