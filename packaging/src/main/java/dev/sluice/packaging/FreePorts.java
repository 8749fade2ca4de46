package dev.sluice.packaging;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Free loopback ports for the daemons of a local cluster, picked before they start. */
public final class FreePorts {
    private FreePorts() {}

    /** A free port whose neighbour 100 above (sluice-dbd's gRPC port) is free too. */
    public static int withGrpcAbove() throws IOException {
        for (int tries = 0; tries < 100; tries++) {
            int port = any();
            if (port + 100 <= 65535) {
                try (ServerSocket s = new ServerSocket(port + 100, 1, InetAddress.getLoopbackAddress())) {
                    return port;
                } catch (IOException taken) {
                    // try another
                }
            }
        }
        throw new IOException("no free port pair for sluice-dbd");
    }

    static int unchecked() {
        try {
            return any();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** A port nobody listens on now (the kernel's pick; free until someone takes it). */
    public static int any() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
