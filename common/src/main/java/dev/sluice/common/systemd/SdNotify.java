package dev.sluice.common.systemd;

import com.sun.jna.LastErrorException;
import dev.sluice.common.os.LibC;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * systemd's notification protocol, as {@code sd_notify(3)} documents it: the service sends
 * newline-separated {@code KEY=VALUE} assignments ({@code READY=1}, {@code STOPPING=1},
 * {@code STATUS=...}) as one datagram to the {@code AF_UNIX} socket named in
 * {@code $NOTIFY_SOCKET}; a name starting with {@code @} is in the abstract namespace. The JDK
 * has no unix datagram sockets, so this calls libc through JNA. Without {@code NOTIFY_SOCKET}
 * (not started by systemd, or not {@code Type=notify}) every call does nothing.
 */
public final class SdNotify {
    private static final int AF_UNIX = 1;
    private static final int SOCK_DGRAM = 2;
    private static final int SOCK_CLOEXEC = 0x80000;
    private static final int SUN_PATH_MAX = 108;

    private final String socket;

    private SdNotify(String socket) {
        this.socket = socket;
    }

    /** From the environment the daemon was started with. */
    public static SdNotify fromEnvironment(Map<String, String> env) {
        String s = env.get("NOTIFY_SOCKET");
        return new SdNotify(s == null || s.isEmpty() ? null : s);
    }

    public boolean enabled() {
        return socket != null;
    }

    /** The service has started and answers requests. */
    public void ready(String status) throws IOException {
        send("READY=1\nSTATUS=" + status.replace('\n', ' '));
    }

    /** The service is shutting down (systemd then waits for it instead of calling it failed). */
    public void stopping() throws IOException {
        send("STOPPING=1");
    }

    /**
     * Sends, and on failure says so on standard error instead of failing: a daemon that runs
     * is better than one that stops because its supervisor's socket went away (systemd then
     * times the start out and restarts it, which the log line explains).
     */
    public void sendOrWarn(String state) {
        try {
            send(state);
        } catch (IOException | RuntimeException | LinkageError e) {
            System.err.println("sd_notify(" + state.replace('\n', ' ') + ") failed: " + e.getMessage());
        }
    }

    /** Sends one notification datagram; nothing when not under a {@code Type=notify} unit. */
    public void send(String state) throws IOException {
        if (socket == null) {
            return;
        }
        byte[] address = sockaddrUn(socket);
        byte[] message = state.getBytes(StandardCharsets.UTF_8);
        LibC.Calls libc = LibC.get();
        int fd;
        try {
            fd = libc.socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        } catch (LastErrorException e) {
            throw new IOException("sd_notify: socket: errno " + e.getErrorCode(), e);
        }
        try {
            libc.sendto(fd, message, message.length, 0, address, address.length);
        } catch (LastErrorException e) {
            throw new IOException("sd_notify: sendto " + socket + ": errno " + e.getErrorCode(), e);
        } finally {
            libc.close(fd);
        }
    }

    /**
     * {@code struct sockaddr_un}: a native-order {@code sa_family_t}, then the path; an abstract
     * name ({@code @name}) begins with a NUL byte and its length counts exactly its bytes. Public
     * for the tests that bind a socket standing in for systemd's.
     */
    public static byte[] sockaddrUn(String path) {
        boolean abstractName = path.startsWith("@");
        byte[] name = (abstractName ? "\0" + path.substring(1) : path).getBytes(StandardCharsets.UTF_8);
        if (name.length >= SUN_PATH_MAX) {
            throw new IllegalArgumentException("NOTIFY_SOCKET path too long: " + path);
        }
        int length = 2 + name.length + (abstractName ? 0 : 1);
        ByteBuffer b = ByteBuffer.allocate(length).order(ByteOrder.nativeOrder());
        b.putShort((short) AF_UNIX);
        b.put(name);
        return b.array();
    }
}
