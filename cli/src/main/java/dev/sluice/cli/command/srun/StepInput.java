package dev.sluice.cli.command.srun;

import com.google.protobuf.ByteString;
import dev.sluice.protocol.v1.StdinMode;
import dev.sluice.protocol.v1.StepIo;
import dev.sluice.protocol.v1.TaskInput;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * srun's standard input and where it goes ({@code -i}): to every task (Slurm's default and
 * {@code all}), to one ({@code -i N}), or to none ({@code none}, or a file the tasks open on
 * their nodes, {@link InputRedirect}). Read in chunks as it comes and sent to the nodes whose
 * tasks read it, then its end.
 */
record StepInput(InputStream in, StdinMode mode, int task) {
    static final StepInput NONE = new StepInput(InputStream.nullInputStream(), StdinMode.STDIN_NONE, 0);
    private static final int CHUNK = 64 * 1024;
    /** How long srun waits for every node's hello before it gives its input up. */
    private static final long HELLO_WAIT_MS = 60_000;

    /** {@code -i}'s value (absent: null) as the input's destination. */
    static StepInput of(String option, InputStream in) {
        if (option == null || option.equalsIgnoreCase("all")) {
            return new StepInput(in, StdinMode.STDIN_ALL, 0);
        }
        if (!option.isEmpty() && option.chars().allMatch(Character::isDigit) && option.length() < 10) {
            return new StepInput(in, StdinMode.STDIN_TASK, Integer.parseInt(option));
        }
        return NONE;
    }

    /** {@code --pty}: task 0 reads it, on its pseudo-terminal. */
    static StepInput pty(InputStream in) {
        return new StepInput(in, StdinMode.STDIN_TASK, 0);
    }

    boolean forwards() {
        return mode != StdinMode.STDIN_NONE;
    }

    /** Whether a node running {@code tasks} gets the input. */
    boolean reaches(List<Integer> tasks) {
        return mode == StdinMode.STDIN_ALL || (mode == StdinMode.STDIN_TASK && tasks.contains(task));
    }

    /**
     * Sends the input to the nodes whose tasks read it, once they have said hello
     * ({@code hellos}; {@code tasksOf} holds each node's tasks), until it ends; then its end.
     * Reads nothing when no task reads it.
     */
    void pump(Map<Socket, List<Integer>> tasksOf, CountDownLatch hellos) {
        try {
            if (!hellos.await(HELLO_WAIT_MS, TimeUnit.MILLISECONDS)) {
                return;
            }
        } catch (InterruptedException e) {
            return;
        }
        List<Socket> targets = new ArrayList<>();
        tasksOf.forEach((node, tasks) -> {
            if (reaches(tasks)) {
                targets.add(node);
            }
        });
        byte[] buf = new byte[CHUNK];
        boolean ended = false;
        while (!ended && !targets.isEmpty()) {
            Optional<byte[]> chunk = read(buf);
            ended = chunk.isEmpty();
            TaskInput.Builder frame = TaskInput.newBuilder().setEof(ended);
            chunk.ifPresent(b -> frame.setData(ByteString.copyFrom(b)));
            StepIo io = StepIo.newBuilder().setInput(frame).build();
            targets.removeIf(node -> {
                try {
                    StepIoServer.send(node, io);
                    return false;
                } catch (IOException e) {
                    // That node's tasks are done: it takes no more.
                    return true;
                }
            });
        }
    }

    private Optional<byte[]> read(byte[] buf) {
        try {
            int n = in.read(buf);
            if (n < 0) {
                return Optional.empty();
            }
            byte[] out = new byte[n];
            System.arraycopy(buf, 0, out, 0, n);
            return Optional.of(out);
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
