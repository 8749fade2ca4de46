package dev.sluice.noded.conf;

import com.google.protobuf.ByteString;
import dev.sluice.common.auth.ClusterCredentials;
import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.common.auth.Principal;
import dev.sluice.protocol.Frames;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.GetConfigRequest;
import dev.sluice.protocol.v1.SignedRequest;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Configless start: asks the controller for {@code slurm.conf}, {@code gres.conf} and their
 * companions over its command socket ({@code SlurmctldPort}, as slurmd's {@code --conf-server}
 * does), and keeps them in {@code <spool>/conf-cache}. When the controller cannot be reached,
 * the cache from the last fetch is used; with neither, the daemon cannot start.
 */
public final class ConfigFetcher {
    private static final Logger log = LoggerFactory.getLogger(ConfigFetcher.class);
    public static final int DEFAULT_PORT = 6817;
    private static final int TIMEOUT_MS = 5_000;
    private static final long RETRY_MS = 2_000;

    private ConfigFetcher() {}

    /** {@code host[:port]}, several separated by commas (primary first). */
    public record Server(String host, int port) {
        public static java.util.List<Server> parse(String value) {
            java.util.List<Server> out = new java.util.ArrayList<>();
            for (String item : value.split(",")) {
                String s = item.strip();
                int colon = s.lastIndexOf(':');
                if (colon > 0 && !s.endsWith("]")) {
                    out.add(new Server(s.substring(0, colon), Integer.parseInt(s.substring(colon + 1))));
                } else {
                    out.add(new Server(s, DEFAULT_PORT));
                }
            }
            return out;
        }
    }

    /**
     * Fetches into {@code cacheDir} (replacing what was there) or falls back to it. With no cache
     * yet, waits for a controller as slurmd does, retrying every {@code RETRY_MS}.
     *
     * @return the cached {@code slurm.conf} to read
     */
    public static Path fetchOrCached(java.util.List<Server> servers, Path cacheDir, Optional<ClusterKeys> keys)
            throws IOException {
        boolean warned = false;
        while (true) {
            IOException last = null;
            for (Server server : servers) {
                try {
                    Map<String, byte[]> files = fetch(server, keys);
                    if (!files.containsKey("slurm.conf")) {
                        throw new IOException("the controller at " + server.host() + ":" + server.port()
                                + " serves no configuration (is SlurmctldParameters=enable_configless set?)");
                    }
                    store(files, cacheDir);
                    log.info(
                            "configless: fetched {} from {}:{} into {}",
                            files.keySet(),
                            server.host(),
                            server.port(),
                            cacheDir);
                    return cacheDir.resolve("slurm.conf");
                } catch (IOException e) {
                    last = e;
                }
            }
            Path cached = cacheDir.resolve("slurm.conf");
            if (Files.isRegularFile(cached)) {
                log.warn("configless: {}; starting from the cached configuration in {}", last.getMessage(), cacheDir);
                return cached;
            }
            if (!warned) {
                log.warn(
                        "configless: {}; no cached copy in {}: waiting for the controller",
                        last.getMessage(),
                        cacheDir);
                warned = true;
            }
            try {
                Thread.sleep(RETRY_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for the controller", e);
            }
        }
    }

    /**
     * One GetConfig call, signed with the cluster key: the controller answers nobody without a
     * credential, and a node daemon has the key even when it has no slurm.conf yet.
     */
    static Map<String, byte[]> fetch(Server server, Optional<ClusterKeys> keys) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(server.host(), server.port()), TIMEOUT_MS);
            socket.setSoTimeout(TIMEOUT_MS);
            byte[] request = ClientRequest.newBuilder()
                    .setProtocolVersion(Frames.PROTOCOL_VERSION)
                    .setRequestId(1)
                    .setGetConfig(GetConfigRequest.getDefaultInstance())
                    .build()
                    .toByteArray();
            SignedRequest.Builder frame = SignedRequest.newBuilder().setRequest(ByteString.copyFrom(request));
            if (keys.isPresent()) {
                com.sun.security.auth.module.UnixSystem me = new com.sun.security.auth.module.UnixSystem();
                Principal self = new Principal(me.getUid(), me.getGid(), me.getUsername(), List.of(), "");
                frame.setCredential(new ClusterCredentials(keys.get())
                        .issue(self, "slurmctld", request, Instant.now(), ClusterCredentials.DEFAULT_TTL));
            }
            Frames.write(frame.build(), new BufferedOutputStream(socket.getOutputStream()));
            ClientResponse r =
                    Frames.readAnswer(ClientResponse.parser(), new BufferedInputStream(socket.getInputStream()));
            if (r.hasError() && r.getError().getCode() != 0) {
                throw new IOException(r.getError().getMessage());
            }
            Map<String, byte[]> files = new LinkedHashMap<>();
            r.getGetConfig().getFilesMap().forEach((name, bytes) -> files.put(name, bytes.toByteArray()));
            return files;
        } catch (IOException e) {
            throw new IOException(server.host() + ":" + server.port() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Each file written beside, then renamed over, the old one; files no longer served go. The
     * configuration is public, as /etc/slurm is (users' commands on this node read it): 0755 and
     * 0644 whatever the daemon's umask (077).
     */
    static void store(Map<String, byte[]> files, Path cacheDir) throws IOException {
        Files.createDirectories(cacheDir);
        Files.setPosixFilePermissions(cacheDir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        for (Map.Entry<String, byte[]> e : files.entrySet()) {
            String name = e.getKey();
            if (name.contains("/") || name.startsWith(".")) {
                throw new IOException("refusing to cache a file named " + name);
            }
            Path tmp = cacheDir.resolve("." + name + ".tmp");
            Files.write(tmp, e.getValue());
            Files.setPosixFilePermissions(tmp, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
            Files.move(
                    tmp, cacheDir.resolve(name), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        try (Stream<Path> old = Files.list(cacheDir)) {
            for (Path p : old.toList()) {
                if (!files.containsKey(p.getFileName().toString())) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }
}
