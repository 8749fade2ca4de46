package dev.sluice.restd.http;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.concurrent.Executor;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.ManagedSelector;
import org.eclipse.jetty.io.SelectorManager;
import org.eclipse.jetty.io.SocketChannelEndPoint;
import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Server;

/**
 * Jetty on a Unix-domain socket, as slurmrestd's {@code unix:/path}: the JDK's own Unix
 * channels under Jetty's selector, so that a request on it can ask the kernel who sent it
 * ({@code SO_PEERCRED}, {@link #peer(Request)}). Jetty's {@code jetty-unixdomain-server} module
 * would do the same but is not among the build's offline dependencies; Jetty's
 * {@code ServerConnector} cannot carry Unix channels (it configures TCP options on each).
 */
final class UnixConnector extends AbstractConnector {
    private final Path path;
    private final SelectorManager selectors;
    private volatile ServerSocketChannel listener;

    UnixConnector(Server server, Path path, ConnectionFactory factory) {
        super(server, null, null, null, 1, factory);
        this.path = requireNonNull(path, "path is null");
        this.selectors = new Selectors(getExecutor());
        addBean(selectors, true);
    }

    Path path() {
        return path;
    }

    /**
     * Binds before the selector starts. A socket file left by a daemon that died is replaced, as
     * slurmrestd does; anyone may connect (0666), since who connected is what the kernel tells
     * and the authentication decides.
     */
    @Override
    protected void doStart() throws Exception {
        Files.deleteIfExists(path);
        ServerSocketChannel channel = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        channel.bind(UnixDomainSocketAddress.of(path), 4096);
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-rw-rw-"));
        channel.configureBlocking(true);
        listener = channel;
        super.doStart();
    }

    @Override
    protected void doStop() throws Exception {
        ServerSocketChannel channel = listener;
        listener = null;
        if (channel != null) {
            channel.close();
        }
        super.doStop();
        Files.deleteIfExists(path);
    }

    @Override
    protected void accept(int acceptorID) throws IOException {
        ServerSocketChannel channel = listener;
        if (channel == null) {
            throw new IOException("closed");
        }
        SocketChannel client = channel.accept();
        client.configureBlocking(false);
        selectors.accept(client);
    }

    @Override
    public Object getTransport() {
        return listener;
    }

    /**
     * The process at the other end of the request's connection, as the kernel reports it; empty
     * when the request did not come over a Unix socket.
     */
    static Optional<UnixDomainPrincipal> peer(Request request) {
        Object transport =
                request.getConnectionMetaData().getConnection().getEndPoint().getTransport();
        if (!(transport instanceof SocketChannel channel)) {
            return Optional.empty();
        }
        try {
            return channel.getRemoteAddress() instanceof UnixDomainSocketAddress
                    ? Optional.of(channel.getOption(ExtendedSocketOptions.SO_PEERCRED))
                    : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private final class Selectors extends SelectorManager {
        Selectors(Executor executor) {
            super(executor, UnixConnector.this.getScheduler());
        }

        @Override
        protected EndPoint newEndPoint(SelectableChannel channel, ManagedSelector selector, SelectionKey key) {
            SocketChannelEndPoint endPoint =
                    new SocketChannelEndPoint((SocketChannel) channel, selector, key, getScheduler());
            endPoint.setIdleTimeout(getIdleTimeout());
            return endPoint;
        }

        @Override
        public Connection newConnection(SelectableChannel channel, EndPoint endPoint, Object attachment) {
            return getDefaultConnectionFactory().newConnection(UnixConnector.this, endPoint);
        }

        @Override
        protected void endPointOpened(EndPoint endPoint) {
            super.endPointOpened(endPoint);
            onEndPointOpened(endPoint);
        }

        @Override
        protected void endPointClosed(EndPoint endPoint) {
            onEndPointClosed(endPoint);
            super.endPointClosed(endPoint);
        }
    }
}
