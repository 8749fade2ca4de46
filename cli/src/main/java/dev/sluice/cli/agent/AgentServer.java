package dev.sluice.cli.agent;

import static java.util.Objects.requireNonNull;

import dev.sluice.cli.Command;
import dev.sluice.cli.UserDirectory;
import dev.sluice.cli.client.ClientSetup;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's listening socket. Every local user may connect (mode 0666): what a connection
 * may do is decided by who the kernel says is on it, never by permission to connect. Each
 * connection is a {@link Session} on its own virtual thread, so a slow or vanished caller
 * holds nothing but its own thread.
 */
public final class AgentServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(AgentServer.class);

    private final Path socket;
    private final Function<String, Optional<Command>> commands;
    private final UserDirectory users;
    private final Clock clock;
    private final String host;
    private final AgentSetup setup;
    private final ExecutorService sessions = Executors.newVirtualThreadPerTaskExecutor();
    private ServerSocketChannel server;
    private Thread acceptor;

    /** An agent for {@code conf} that reads it and connects afresh for every call. */
    public AgentServer(
            Path socket,
            Path conf,
            Function<String, Optional<Command>> commands,
            UserDirectory users,
            Clock clock,
            String host) {
        this(socket, commands, users, clock, host, new AgentSetup(conf, ClientSetup.perCall()));
    }

    /** @param setup the configuration served, shared by every call with the connections kept */
    public AgentServer(
            Path socket,
            Function<String, Optional<Command>> commands,
            UserDirectory users,
            Clock clock,
            String host,
            AgentSetup setup) {
        this.setup = requireNonNull(setup, "setup is null");
        this.socket = requireNonNull(socket, "socket is null");
        this.commands = requireNonNull(commands, "commands is null");
        this.users = requireNonNull(users, "users is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.host = requireNonNull(host, "host is null");
    }

    /** Binds the socket (replacing a stale one, refusing a live one) and starts accepting. */
    public AgentServer start() throws IOException {
        dev.sluice.common.files.PublicDirectories.create(socket.toAbsolutePath().getParent());
        if (Files.exists(socket)) {
            if (answers(socket)) {
                throw new IOException("another sluice-agent is already listening on " + socket);
            }
            Files.delete(socket);
        }
        server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket), 512);
        Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-rw-rw-"));
        PeerCredentials credentials = new PeerCredentials(users);
        acceptor = Thread.ofPlatform().name("agent-accept").daemon(true).start(() -> accept(credentials));
        log.info("sluice-agent listening on {} for {}", socket, setup.conf());
        return this;
    }

    private void accept(PeerCredentials credentials) {
        while (server.isOpen()) {
            try {
                SocketChannel channel = server.accept();
                sessions.execute(new Session(channel, credentials, commands, users, clock, host, setup));
            } catch (AsynchronousCloseException e) {
                return;
            } catch (IOException e) {
                log.warn("accept failed: {}", e.getMessage());
            }
        }
    }

    static boolean answers(Path socket) {
        try (SocketChannel probe = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
            return probe.isConnected();
        } catch (IOException e) {
            return false;
        }
    }

    public Path socket() {
        return socket;
    }

    @Override
    public void close() throws IOException {
        if (server != null) {
            server.close();
        }
        if (acceptor != null) {
            try {
                acceptor.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        sessions.shutdownNow();
        Files.deleteIfExists(socket);
    }
}
