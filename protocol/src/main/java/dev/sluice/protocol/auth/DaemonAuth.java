package dev.sluice.protocol.auth;

import static java.util.Objects.requireNonNull;

import com.sun.security.auth.module.UnixSystem;
import dev.sluice.common.auth.AuthException;
import dev.sluice.common.auth.ClusterCredentials;
import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.common.auth.Principal;
import io.grpc.BindableService;
import io.grpc.ClientInterceptor;
import io.grpc.Drainable;
import io.grpc.KnownLength;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One daemon's part in daemon-to-daemon authentication. Outgoing calls get a credential
 * ({@link #client}); incoming services are wrapped so that a call runs only with a valid one
 * ({@link #protect}). A credential is an HS256 JWT made with the cluster key: it names this
 * daemon's account and host, the daemon it is meant for, lives {@link #TTL}, carries a nonce
 * and the SHA-256 of the method name and the exact request bytes, so it cannot be replayed nor
 * moved to another request. Keys can be swapped at run time ({@link #reload}) for rotation.
 */
public final class DaemonAuth {
    /** The gRPC header that carries the credential. */
    public static final Metadata.Key<String> CREDENTIAL =
            Metadata.Key.of("sluice-credential", Metadata.ASCII_STRING_MARSHALLER);

    /** Audiences: the daemon a credential is meant for, in Slurm's names. */
    public static final String CTLD = "slurmctld";

    public static final String NODED = "slurmd";
    public static final String DBD = "slurmdbd";

    /** Munge's default lifetime; a credential is single-use anyway. */
    public static final Duration TTL = ClusterCredentials.DEFAULT_TTL;

    private volatile ClusterCredentials credentials;
    private final Principal self;
    private final Set<Long> trustedUids;
    private final InstantSource clock;
    private final NonceCache nonces = new NonceCache();

    /**
     * @param self who this daemon's credentials say it is
     * @param trustedUids accounts whose credentials this daemon obeys (root, SlurmUser)
     */
    public DaemonAuth(ClusterKeys keys, Principal self, Set<Long> trustedUids, InstantSource clock) {
        this.credentials = new ClusterCredentials(requireNonNull(keys, "keys is null"));
        this.self = requireNonNull(self, "self is null");
        this.trustedUids = Set.copyOf(trustedUids);
        this.clock = requireNonNull(clock, "clock is null");
    }

    /**
     * This process as the signer; trusted are root, this process's own account and the named
     * users (SlurmUser) that the local password file knows.
     */
    public static DaemonAuth forThisProcess(
            ClusterKeys keys, String host, Collection<String> trustedUsers, InstantSource clock) {
        Principal me = thisProcess(host);
        Set<Long> trusted = new HashSet<>(List.of(0L, me.uid()));
        for (String user : trustedUsers) {
            Passwd.uid(user).ifPresent(trusted::add);
        }
        return new DaemonAuth(keys, me, trusted, clock);
    }

    /** The account this JVM runs as, on {@code host}. */
    public static Principal thisProcess(String host) {
        UnixSystem unix = new UnixSystem();
        List<Long> groups = Arrays.stream(unix.getGroups()).boxed().toList();
        // A uid with no passwd entry (a container's arbitrary uid) is named by its number, as id(1)
        // does, rather than stopping the daemon.
        String name = unix.getUsername() != null ? unix.getUsername() : Long.toString(unix.getUid());
        return new Principal(unix.getUid(), unix.getGid(), name, groups, host);
    }

    /** New keys (a rotated {@code slurm.jwks}); credentials in flight under a kept key stay valid. */
    public void reload(ClusterKeys keys) {
        this.credentials = new ClusterCredentials(requireNonNull(keys, "keys is null"));
    }

    public ClusterCredentials credentials() {
        return credentials;
    }

    public InstantSource clock() {
        return clock;
    }

    /** Signs every call of a channel for the daemon {@code audience}. */
    public ClientInterceptor client(String audience) {
        return new SigningInterceptor(this, audience);
    }

    /**
     * {@code method} taking its request as the bytes its own marshaller would make of it: a caller
     * that already holds them (a launch serialised for its job credential, the outbox's stored
     * records) sends them through {@link #client} without a second serialisation.
     */
    public static <R> MethodDescriptor<byte[], R> serialised(MethodDescriptor<?, R> method) {
        return method.toBuilder(RAW, method.getResponseMarshaller()).build();
    }

    /** {@code service}, answering only calls with a valid credential meant for {@code audience}. */
    public ServerServiceDefinition protect(BindableService service, String audience) {
        // The check digests the bytes exactly as received, so the service is re-typed to raw
        // bytes first; the original marshallers parse them after the check.
        ServerServiceDefinition raw = ServerInterceptors.useMarshalledMessages(service.bindService(), RAW);
        return ServerInterceptors.intercept(raw, new CredentialCheck(this, audience));
    }

    String issue(String audience, String method, byte[] body) {
        return credentials.issue(self, audience, bind(method, body), clock.instant(), TTL);
    }

    /** Why a credential is refused, and whether it is the signer's account that is wrong. */
    record Refusal(String reason, boolean notADaemon) {}

    /** Checks a credential for {@code body} of {@code method}; null when it is good. */
    Refusal check(String token, String audience, String method, byte[] body) {
        ClusterCredentials.Verified v;
        try {
            v = credentials.verify(token, audience, bind(method, body), clock.instant());
        } catch (AuthException e) {
            return new Refusal(e.getMessage(), false);
        }
        if (v.nonce() == null || !nonces.firstUse(v.nonce(), v.expires(), clock.instant())) {
            return new Refusal("credential replayed", false);
        }
        if (!trustedUids.contains(v.principal().uid())) {
            return new Refusal(
                    "uid " + v.principal().uid() + " (" + v.principal().userName() + "@"
                            + v.principal().host() + ") is not a daemon account",
                    true);
        }
        return null;
    }

    /** What a credential covers: the method, then the request bytes. */
    static byte[] bind(String method, byte[] body) {
        byte[] name = method.getBytes(StandardCharsets.UTF_8);
        byte[] out = Arrays.copyOf(name, name.length + 1 + body.length);
        out[name.length] = '\n';
        System.arraycopy(body, 0, out, name.length + 1, body.length);
        return out;
    }

    /**
     * All of {@code in}, read into an array of the size it says it holds (gRPC's message streams
     * know theirs): {@link InputStream#readAllBytes} starts with a zeroed 16 KiB buffer, for
     * every call's body of a few hundred bytes, on both ends of every call.
     */
    static byte[] readAll(InputStream in) throws IOException {
        int size = in.available();
        if (size <= 0) {
            return in.readAllBytes();
        }
        byte[] body = new byte[size];
        int got = in.readNBytes(body, 0, size);
        if (got < size) {
            return Arrays.copyOf(body, got);
        }
        int next = in.read();
        if (next < 0) {
            return body;
        }
        // More than it said: the rest as it comes.
        ByteArrayOutputStream out = new ByteArrayOutputStream(size * 2);
        out.write(body, 0, size);
        out.write(next);
        in.transferTo(out);
        return out.toByteArray();
    }

    /** Bytes gRPC frames as it frames a protobuf message: length known, written out whole. */
    private static final class Body extends ByteArrayInputStream implements KnownLength, Drainable {
        Body(byte[] bytes) {
            super(bytes);
        }

        @Override
        public int drainTo(OutputStream target) throws IOException {
            int n = count - pos;
            target.write(buf, pos, n);
            pos = count;
            return n;
        }
    }

    static final MethodDescriptor.Marshaller<byte[]> RAW = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
            return new Body(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try {
                return readAll(stream);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    };
}
