package dev.sluice.cli.agent;

import dev.sluice.cli.Caller;
import dev.sluice.cli.Command;
import dev.sluice.cli.Interrupts;
import dev.sluice.cli.Invocation;
import dev.sluice.cli.UserDirectory;
import dev.sluice.common.log.QuietLog;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One front-end connection: one command run for the peer the kernel names. Runs on its own
 * virtual thread; a second virtual thread reads the caller's input and signals. If the caller
 * goes away mid-command the command is interrupted (so {@code squeue -i} stops) and its
 * output is dropped; nothing else in the agent notices.
 */
final class Session implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(Session.class);
    private static final QuietLog quiet = QuietLog.of(Session.class);
    private static final int SIGHUP = 1;
    private static final int SIGINT = 2;
    private static final int SIGTERM = 15;
    private static final int SIGWINCH = 28;

    private final SocketChannel channel;
    private final PeerCredentials credentials;
    private final Function<String, Optional<Command>> commands;
    private final UserDirectory users;
    private final Clock clock;
    private final String host;
    private final AgentSetup setup;
    private final Object writeLock = new Object();
    private final List<Runnable> interruptHandlers = new CopyOnWriteArrayList<>();
    private final List<Runnable> resizeHandlers = new CopyOnWriteArrayList<>();
    private DataOutputStream wire;
    private volatile boolean finished;
    /**
     * Something the caller can see has happened (output sent, input read, a file written, a
     * program run): from here on the call cannot be handed back to the caller's own JVM.
     */
    private volatile boolean committed;
    /** The answer the command waits for from the front end, with the most bytes it may carry. */
    private volatile CompletableFuture<byte[]> pending;

    private volatile int answerLimit;

    Session(
            SocketChannel channel,
            PeerCredentials credentials,
            Function<String, Optional<Command>> commands,
            UserDirectory users,
            Clock clock,
            String host,
            AgentSetup setup) {
        this.setup = setup;
        this.channel = channel;
        this.credentials = credentials;
        this.commands = commands;
        this.users = users;
        this.clock = clock;
        this.host = host;
    }

    @Override
    public void run() {
        String who = null;
        try (channel) {
            PeerCredentials.Peer peer = credentials.of(channel);
            who = "uid " + peer.uid();
            DataInputStream in = new DataInputStream(new BufferedInputStream(Channels.newInputStream(channel)));
            wire = new DataOutputStream(new BufferedOutputStream(Channels.newOutputStream(channel)));
            AgentFrames.Frame first = AgentFrames.read(in);
            if (first.type() != AgentFrames.RUN) {
                quiet.warn(who, "refused agent connection", "the first frame was not a run request");
                return;
            }
            AgentFrames.Run run = AgentFrames.decodeRun(first.payload());
            execute(peer, run, in);
        } catch (EOFException e) {
            log.debug("client left before asking for anything");
        } catch (IOException e) {
            quiet.warn(who, "agent connection dropped", e.getMessage());
        }
    }

    private void execute(PeerCredentials.Peer peer, AgentFrames.Run run, DataInputStream in) throws IOException {
        String name = Path.of(run.argv().getFirst()).getFileName().toString();
        PrintStream out = stream(AgentFrames.STDOUT);
        PrintStream err = stream(AgentFrames.STDERR);
        Optional<Command> command = commands.apply(name);
        Path cwd = run.cwd().startsWith("/") ? Path.of(run.cwd()) : null;
        if (command.isEmpty() || cwd == null) {
            err.println(
                    command.isEmpty()
                            ? "sluice-agent: unknown command '" + name + "'"
                            : "sluice-agent: the working directory must be absolute");
            finish(out, err, 1);
            return;
        }
        StdinPipe stdin = new StdinPipe(this::wantStdin);
        Thread commandThread = Thread.currentThread();
        Thread.ofVirtual().name("agent-input").start(() -> relayInput(in, stdin, commandThread));
        FrontEndSide side = new FrontEndSide(this::ask, () -> {
            committed = true;
            out.flush();
            err.flush();
        });
        Invocation invocation = new Invocation(
                run.argv().subList(1, run.argv().size()),
                run.env(),
                cwd,
                stdin,
                new Caller(peer.uid(), peer.gid(), peer.userName(), host),
                clock,
                users.current(),
                new Interrupts() {
                    @Override
                    public Registration onInterrupt(Runnable handler) {
                        interruptHandlers.add(handler);
                        return () -> interruptHandlers.remove(handler);
                    }

                    @Override
                    public Registration onResize(Runnable handler) {
                        resizeHandlers.add(handler);
                        return () -> resizeHandlers.remove(handler);
                    }
                },
                true,
                setup.forCall(side),
                side);
        log.debug("uid {} runs {} {}", peer.uid(), name, invocation.args());
        int code;
        try {
            code = command.get().run(invocation, out, err);
        } catch (AgentSetup.NotServed e) {
            if (!committed) {
                log.debug("uid {} runs {} itself: {}", peer.uid(), name, e.getMessage());
                fallBack();
                return;
            }
            err.println(name + ": error: sluice-agent cannot finish this command (" + e.getMessage()
                    + "); run it with SLUICE_NO_AGENT=1");
            code = 1;
        } catch (RuntimeException e) {
            log.error("{} failed for uid {}", name, peer.uid(), e);
            err.println(name + ": error: " + e.getMessage());
            code = 1;
        }
        finish(out, err, code);
    }

    /**
     * The caller runs the command itself, from the start: nothing it could see has happened yet
     * (output still buffered here is dropped, none was sent), so it is as if the agent had not answered.
     */
    private void fallBack() throws IOException {
        synchronized (writeLock) {
            if (finished) {
                return;
            }
            finished = true;
            AgentFrames.write(wire, AgentFrames.FALLBACK, new byte[0], 0, 0);
            wire.flush();
        }
    }

    /**
     * One request to the front end, answered before anything else is asked: the command's
     * thread waits here while the input thread reads on. A caller gone meanwhile fails it.
     */
    private byte[] ask(int type, byte[] payload, int maxAnswer) throws IOException, InterruptedException {
        CompletableFuture<byte[]> answer = new CompletableFuture<>();
        synchronized (writeLock) {
            if (finished) {
                throw new IOException("the caller has gone");
            }
            answerLimit = maxAnswer;
            pending = answer;
            AgentFrames.write(wire, type, payload, 0, payload.length);
            wire.flush();
        }
        try {
            return answer.get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IOException("the caller has gone", e.getCause());
        } finally {
            pending = null;
            answerLimit = 0;
        }
    }

    private void wantStdin() {
        committed = true;
        synchronized (writeLock) {
            try {
                if (!finished) {
                    AgentFrames.write(wire, AgentFrames.WANT_STDIN, new byte[0], 0, 0);
                    wire.flush();
                }
            } catch (IOException e) {
                // the caller is gone; the reader thread ends the input
            }
        }
    }

    private void finish(PrintStream out, PrintStream err, int code) throws IOException {
        out.flush();
        err.flush();
        synchronized (writeLock) {
            if (finished) {
                return;
            }
            finished = true;
            byte[] payload = AgentFrames.exitPayload(code);
            AgentFrames.write(wire, AgentFrames.EXIT, payload, 0, payload.length);
            wire.flush();
        }
    }

    /**
     * Standard input and signals from the caller. Ctrl-C goes to whatever the command listens
     * with (srun forwards it to its tasks); a command that does not listen ends as a process
     * killed by SIGINT would, with status 130, and is interrupted.
     */
    private void relayInput(DataInputStream in, StdinPipe stdin, Thread commandThread) {
        try {
            while (!finished) {
                AgentFrames.Frame frame =
                        AgentFrames.read(in, type -> type == AgentFrames.ANSWER ? answerLimit : AgentFrames.MAX_FRAME);
                switch (frame.type()) {
                    case AgentFrames.ANSWER -> {
                        CompletableFuture<byte[]> waiting = pending;
                        if (waiting == null) {
                            throw new IOException("an answer nobody asked for");
                        }
                        pending = null;
                        answerLimit = 0;
                        waiting.complete(frame.payload());
                    }
                    case AgentFrames.STDIN -> {
                        if (frame.payload().length == 0) {
                            stdin.end();
                        } else {
                            stdin.offer(frame.payload());
                        }
                    }
                    case AgentFrames.SIGNAL -> signal(AgentFrames.intOf(frame.payload()), commandThread);
                    default -> throw new IOException("unexpected frame type " + frame.type());
                }
            }
        } catch (IOException e) {
            // The caller is gone (or spoke nonsense): stop its command, drop its output.
            CompletableFuture<byte[]> waiting = pending;
            if (waiting != null) {
                waiting.completeExceptionally(e);
            }
            stdin.end();
            if (!finished) {
                finished = true;
                commandThread.interrupt();
            }
        }
    }

    private void signal(int signo, Thread commandThread) throws IOException {
        if (signo == SIGWINCH) {
            resizeHandlers.forEach(Runnable::run);
            return;
        }
        if (signo == SIGINT && !interruptHandlers.isEmpty()) {
            interruptHandlers.forEach(Runnable::run);
            return;
        }
        if (signo == SIGINT || signo == SIGTERM || signo == SIGHUP) {
            synchronized (writeLock) {
                if (!finished) {
                    finished = true;
                    byte[] payload = AgentFrames.exitPayload(128 + signo);
                    AgentFrames.write(wire, AgentFrames.EXIT, payload, 0, payload.length);
                    wire.flush();
                }
            }
            commandThread.interrupt();
        }
    }

    private PrintStream stream(int type) {
        OutputStream frames = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                synchronized (writeLock) {
                    if (finished) {
                        throw new IOException("the caller has gone");
                    }
                    committed = true;
                    AgentFrames.write(wire, type, b, off, len);
                    wire.flush();
                }
            }
        };
        return new PrintStream(new BufferedOutputStream(frames, 1 << 16), false, StandardCharsets.UTF_8);
    }
}
