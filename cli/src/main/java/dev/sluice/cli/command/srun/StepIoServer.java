package dev.sluice.cli.command.srun;

import dev.sluice.protocol.Frames;
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

/**
 * srun's end of a step's I/O: a listening socket each node of the step connects to, sending
 * {@code StepIo} frames (hello, task output, task exits). Output is printed as it arrives; with
 * {@code -l} whole lines are prefixed by their task id, as Slurm's {@code srun -l} prints them.
 */
final class StepIoServer implements AutoCloseable {
    private static final int ACCEPT_TIMEOUT_MS = 60_000;

    private final ServerSocket server;
    private final boolean label;
    private final PrintStream out;
    private final PrintStream err;
    private final List<Socket> nodes = new ArrayList<>();
    private final Map<Integer, Integer> exits = new ConcurrentHashMap<>();
    private final Map<Long, StringBuilder> partial = new ConcurrentHashMap<>();
    private int width = 1;

    private StepIoServer(ServerSocket server, boolean label, PrintStream out, PrintStream err) {
        this.server = server;
        this.label = label;
        this.out = out;
        this.err = err;
    }

    static StepIoServer open(boolean label, PrintStream out, PrintStream err) throws IOException {
        ServerSocket s = new ServerSocket(0, 64, InetAddress.getByName("0.0.0.0"));
        s.setSoTimeout(ACCEPT_TIMEOUT_MS);
        return new StepIoServer(s, label, out, err);
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
    int serve(int numNodes, int numTasks) throws IOException {
        width = Integer.toString(Math.max(0, numTasks - 1)).length();
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
        for (Thread t : readers) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted");
            }
        }
        int code = 0;
        for (int task = 0; task < numTasks; task++) {
            Integer status = exits.get(task);
            if (status == null) {
                err.println("srun: error: task " + task + ": no exit status (its node went away)");
                code = Math.max(code, 1);
            } else {
                code = Math.max(code, exitCode(status));
            }
        }
        out.flush();
        err.flush();
        return code;
    }

    private void read(Socket node) {
        String name = "?";
        try (node) {
            InputStream in = new BufferedInputStream(node.getInputStream());
            while (true) {
                StepIo frame = Frames.read(StepIo.parser(), in);
                switch (frame.getBodyCase()) {
                    case HELLO -> name = frame.getHello().getNodeName();
                    case OUTPUT ->
                        print(
                                frame.getOutput().getTaskId(),
                                frame.getOutput().getStream(),
                                frame.getOutput().getData().toByteArray());
                    case EXIT -> {
                        int task = frame.getExit().getTaskId();
                        int status = frame.getExit().getStatus();
                        flushPartial(task);
                        exits.put(task, status);
                        report(name, task, status);
                    }
                    default -> {}
                }
            }
        } catch (IOException e) {
            // the node closed the stream: its tasks are done (or gone)
        }
    }

    private void report(String node, int task, int status) {
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

    private synchronized void print(int task, int stream, byte[] data) {
        PrintStream target = stream == 2 ? err : out;
        if (!label) {
            target.write(data, 0, data.length);
            target.flush();
            return;
        }
        StringBuilder buf = partial.computeIfAbsent(key(task, stream), k -> new StringBuilder());
        buf.append(new String(data, java.nio.charset.StandardCharsets.UTF_8));
        int nl;
        while ((nl = buf.indexOf("\n")) >= 0) {
            target.print(prefix(task) + buf.substring(0, nl + 1));
            buf.delete(0, nl + 1);
        }
        target.flush();
    }

    private synchronized void flushPartial(int task) {
        for (int stream = 1; stream <= 2; stream++) {
            StringBuilder buf = partial.remove(key(task, stream));
            if (buf != null && !buf.isEmpty()) {
                (stream == 2 ? err : out).print(prefix(task) + buf + "\n");
            }
        }
    }

    private String prefix(int task) {
        return String.format("%" + width + "d: ", task);
    }

    private static long key(int task, int stream) {
        return ((long) task << 2) | stream;
    }

    /** Ctrl-C: every node of the step passes the signal to its tasks. */
    void signalAll(int signal) {
        synchronized (nodes) {
            for (Socket node : nodes) {
                try {
                    OutputStream o = new BufferedOutputStream(node.getOutputStream());
                    Frames.write(StepIo.newBuilder().setSignal(signal).build(), o);
                    o.flush();
                } catch (IOException e) {
                    // that node is done already
                }
            }
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
