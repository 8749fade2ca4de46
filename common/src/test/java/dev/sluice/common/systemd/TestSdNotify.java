package dev.sluice.common.systemd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Sends to a real unix datagram socket bound here, as systemd's manager would hold it. */
class TestSdNotify {
    private static final int MSG_DONTWAIT = 0x40;

    @TempDir
    Path dir;

    @Test
    void readyReachesASocketGivenByPath() throws Exception {
        String path = dir.resolve("notify").toString();
        try (Receiver r = new Receiver(path)) {
            SdNotify.fromEnvironment(Map.of("NOTIFY_SOCKET", path)).ready("sluice-ctld for cluster c1 ready");
            assertThat(r.receive()).isEqualTo("READY=1\nSTATUS=sluice-ctld for cluster c1 ready");
        }
    }

    @Test
    void stoppingReachesASocketInTheAbstractNamespace() throws Exception {
        String name = "@sluice-test-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        try (Receiver r = new Receiver(name)) {
            SdNotify.fromEnvironment(Map.of("NOTIFY_SOCKET", name)).stopping();
            assertThat(r.receive()).isEqualTo("STOPPING=1");
        }
    }

    @Test
    void withoutNotifySocketNothingIsSent() throws Exception {
        SdNotify none = SdNotify.fromEnvironment(Map.of());
        assertThat(none.enabled()).isFalse();
        none.ready("ignored");
    }

    @Test
    void aSocketNobodyListensOnIsAnError() {
        SdNotify gone = SdNotify.fromEnvironment(
                Map.of("NOTIFY_SOCKET", dir.resolve("absent").toString()));
        assertThatThrownBy(() -> gone.ready("x"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("sendto");
    }

    /** A bound AF_UNIX datagram socket. */
    private static final class Receiver implements AutoCloseable {
        private final int fd;

        Receiver(String name) {
            fd = Sockets.INSTANCE.socket(1, 2, 0);
            byte[] addr = SdNotify.sockaddrUn(name);
            Sockets.INSTANCE.bind(fd, addr, addr.length);
        }

        String receive() {
            byte[] buf = new byte[4096];
            long n = Sockets.INSTANCE.recv(fd, buf, buf.length, MSG_DONTWAIT);
            return new String(buf, 0, (int) n, StandardCharsets.UTF_8);
        }

        @Override
        public void close() {
            Sockets.INSTANCE.close(fd);
        }
    }

    interface Sockets extends Library {
        Sockets INSTANCE = Native.load("c", Sockets.class);

        int socket(int domain, int type, int protocol) throws LastErrorException;

        int bind(int fd, byte[] addr, int addrlen) throws LastErrorException;

        long recv(int fd, byte[] buf, long len, int flags) throws LastErrorException;

        int close(int fd);
    }
}
