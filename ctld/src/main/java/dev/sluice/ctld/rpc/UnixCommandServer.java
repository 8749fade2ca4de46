package dev.sluice.ctld.rpc;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.auth.UserDb;
import dev.sluice.common.daemon.OpenConnections;
import dev.sluice.common.log.QuietLog;
import dev.sluice.protocol.auth.AuthenticatedFrames;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The command socket for users on the controller's own host: a Unix-domain socket anyone may
 * connect to (mode 0666), where the kernel tells who connected ({@code SO_PEERCRED}: the
 * peer's effective uid and gid at connect time, which the peer cannot choose). That is the
 * whole authentication; nothing in the frames is believed. One virtual thread per connection.
 */
public final class UnixCommandServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(UnixCommandServer.class);
    private static final QuietLog quiet = QuietLog.of(UnixCommandServer.class);

    private final CommandGate gate;
    private final UserDb users;
    private final String host;
    private final OpenConnections<SocketChannel> open = new OpenConnections<>();
    private ServerSocketChannel server;
    private Path path;
    private Thread acceptor;

    public UnixCommandServer(CommandGate gate, UserDb users, String host) {
        this.gate = requireNonNull(gate, "gate is null");
        this.users = requireNonNull(users, "users is null");
        this.host = requireNonNull(host, "host is null");
    }

    /** Binds {@code socket}, replacing a stale socket file a previous run left behind. */
    public void start(Path socket) throws IOException {
        dev.sluice.common.files.PublicDirectories.create(socket.toAbsolutePath().getParent());
        if (Files.exists(socket, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            var attrs = Files.readAttributes(
                    socket, java.nio.file.attribute.BasicFileAttributes.class, java.nio.file.LinkOption.NOFOLLOW_LINKS);
            if (!attrs.isOther()) {
                throw new IOException(socket + " exists and is not a socket; refusing to replace it");
            }
            Files.delete(socket);
        }
        server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        // Every local user may connect; what they may do is decided per request from who they are.
        Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-rw-rw-"));
        path = socket;
        acceptor = Thread.ofVirtual().name("ctld-unix-accept").start(this::acceptLoop);
    }

    private void acceptLoop() {
        while (server.isOpen()) {
            try {
                SocketChannel ch = server.accept();
                open.add(ch);
                Thread.ofVirtual().name("ctld-unix-conn").start(() -> serve(ch));
            } catch (IOException e) {
                if (server.isOpen()) {
                    log.warn("accept on {} failed: {}", path, e.getMessage());
                }
            }
        }
    }

    private void serve(SocketChannel ch) {
        String who = null;
        try (ch) {
            UnixDomainPrincipal principal = ch.getOption(ExtendedSocketOptions.SO_PEERCRED);
            who = "local user " + principal.user().getName();
            Optional<UserDb.Account> peer = peer(principal);
            if (peer.isEmpty()) {
                quiet.warn(who, "closed local command connection", "unknown to the user database");
                return;
            }
            AuthenticatedFrames.answerEach(
                    new BufferedInputStream(Channels.newInputStream(ch)),
                    new BufferedOutputStream(Channels.newOutputStream(ch)),
                    frame -> gate.fromLocalPeer(frame, peer.get(), host));
        } catch (IOException e) {
            quiet.warn(who, "closed local command connection", e.getMessage());
        } finally {
            open.remove(ch);
        }
    }

    /**
     * The JDK reports the peer's user by name (its own getpwuid); the name goes back through the
     * user database for the uid and primary gid. A uid without a passwd entry is nobody Slurm
     * would accept either ("Invalid user id").
     */
    Optional<UserDb.Account> peer(UnixDomainPrincipal principal) {
        return users.byName(principal.user().getName());
    }

    @Override
    public void close() {
        open.closeAll(server);
        if (path != null) {
            try {
                Files.deleteIfExists(path);
            } catch (IOException ignored) {
                // a stale socket file is replaced on the next start
            }
        }
    }
}
