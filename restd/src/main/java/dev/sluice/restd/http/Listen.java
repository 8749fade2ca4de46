package dev.sluice.restd.http;

import static java.util.Objects.requireNonNull;

import java.net.InetSocketAddress;
import java.nio.file.Path;

/** Where the daemon listens, as slurmrestd's arguments name it: {@code [HOST]:PORT} or {@code unix:/path}. */
public sealed interface Listen {
    record Tcp(InetSocketAddress address) implements Listen {
        public Tcp {
            requireNonNull(address, "address is null");
        }
    }

    record Unix(Path path) implements Listen {
        public Unix {
            requireNonNull(path, "path is null");
        }
    }
}
