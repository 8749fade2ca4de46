package dev.sluice.cli.agent;

import dev.sluice.cli.Caller;
import dev.sluice.cli.Command;
import dev.sluice.cli.Invocation;
import dev.sluice.cli.UserDirectory;
import dev.sluice.cli.client.ClientSetup;
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

    private final SocketChannel channel;
    private final PeerCredentials credentials;
    private final Function<String, Optional<Command>> commands;
    private final UserDirectory users;
    private final Clock clock;
    private final String host;
    private final ClientSetup setup;
    private final Object writeLock = new Object();
    private final List<Runnable> interruptHandlers = new CopyOnWriteArrayList<>();
    private DataOutputStream wire;
    private volatile boolean finished;

    Session(
            SocketChannel channel,
            PeerCredentials credentials,
            Function<String, Optional<Command>> commands,
            UserDirectory users,
            Clock clock,
            String host,
            ClientSetup setup) {
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
        Invocation invocation = new Invocation(
                run.argv().subList(1, run.argv().size()),
                run.env(),
                cwd,
                stdin,
                new Caller(peer.uid(), peer.gid(), peer.userName(), host),
                clock,
                users,
                handler -> {
                    interruptHandlers.add(handler);
                    return () -> interruptHandlers.remove(handler);
                },
                true,
                setup);
        log.debug("uid {} runs {} {}", peer.uid(), name, invocation.args());
        int code;
        try {
            code = command.get().run(invocation, out, err);
        } catch (RuntimeException e) {
            log.error("{} failed for uid {}", name, peer.uid(), e);
            err.println(name + ": error: " + e.getMessage());
            code = 1;
        }
        finish(out, err, code);
    }

    private void wantStdin() {
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
                AgentFrames.Frame frame = AgentFrames.read(in);
                switch (frame.type()) {
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
            stdin.end();
            if (!finished) {
                finished = true;
                commandThread.interrupt();
            }
        }
    }

    private void signal(int signo, Thread commandThread) throws IOException {
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
                    AgentFrames.write(wire, type, b, off, len);
                    wire.flush();
                }
            }
        };
        return new PrintStream(new BufferedOutputStream(frames, 1 << 16), false, StandardCharsets.UTF_8);
    }
}
