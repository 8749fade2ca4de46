package dev.sluice.protocol.auth;

import static java.util.Objects.requireNonNull;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.MessageLite;
import dev.sluice.common.auth.AuthException;
import dev.sluice.common.auth.ClusterCredentials;
import dev.sluice.common.auth.Principal;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.LaunchBatchJobRequest;
import dev.sluice.protocol.v1.LaunchStepRequest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Job credentials, as Slurm's: the controller signs each launch (a batch job, or one node's
 * share of a step) for the node it allocated, naming the job's owner; the signature covers the
 * whole request (script, argv, environment, CPUs, memory, GPUs), so a launch altered in any way,
 * sent to another node, replayed or older than {@link #TTL} is refused. The request is signed
 * in protobuf's deterministic form without its {@code credential} field.
 */
public final class JobCredentials {
    /** Slurm's default job credential lifetime ({@code cred_expire}). */
    public static final Duration TTL = Duration.ofSeconds(120);

    private JobCredentials() {}

    /** {@code request} with a credential for node {@code node}. */
    public static LaunchBatchJobRequest sign(
            LaunchBatchJobRequest request, String node, ClusterCredentials keys, Instant now) {
        // The controller's requests come unsigned: no copy of the whole spec to clear nothing.
        LaunchBatchJobRequest body = request.getCredential().isEmpty()
                ? request
                : request.toBuilder().clearCredential().build();
        String token = keys.issue(owner(body.getSpec().getOwner(), node), DaemonAuth.NODED, canonical(body), now, TTL);
        return body.toBuilder().setCredential(token).build();
    }

    /**
     * {@link #sign}'s request as bytes for {@link DaemonAuth#serialised} calls: the signed form
     * serialised once, since the credential field is the form its signature covers with that
     * one field added (protobuf reads a field wherever it comes, and the node daemon checks the
     * request it parsed, less its credential, in the canonical form again).
     */
    public static byte[] signedBytes(LaunchBatchJobRequest request, String node, ClusterCredentials keys, Instant now) {
        LaunchBatchJobRequest body = request.getCredential().isEmpty()
                ? request
                : request.toBuilder().clearCredential().build();
        byte[] canonical = canonical(body);
        String token = keys.issue(owner(body.getSpec().getOwner(), node), DaemonAuth.NODED, canonical, now, TTL);
        return withCredential(canonical, token);
    }

    /** A launch's canonical bytes with its credential field added: the launch as signed. */
    static byte[] withCredential(byte[] canonical, String token) {
        int field = LaunchBatchJobRequest.CREDENTIAL_FIELD_NUMBER;
        byte[] signed = new byte[canonical.length + CodedOutputStream.computeStringSize(field, token)];
        System.arraycopy(canonical, 0, signed, 0, canonical.length);
        CodedOutputStream out =
                CodedOutputStream.newInstance(signed, canonical.length, signed.length - canonical.length);
        try {
            out.writeString(field, token);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.checkNoSpaceLeft();
        return signed;
    }

    /**
     * A {@code LaunchBatchJobsRequest} of launches each already in {@link #signedBytes}' form:
     * a repeated message field is each message's bytes behind its tag and length, so the signed
     * launches travel as they were signed.
     */
    public static byte[] together(java.util.List<byte[]> signedLaunches) {
        int field = dev.sluice.protocol.v1.LaunchBatchJobsRequest.LAUNCHES_FIELD_NUMBER;
        int size = 0;
        for (byte[] launch : signedLaunches) {
            size += CodedOutputStream.computeByteArraySize(field, launch);
        }
        byte[] out = new byte[size];
        CodedOutputStream stream = CodedOutputStream.newInstance(out);
        try {
            for (byte[] launch : signedLaunches) {
                stream.writeByteArray(field, launch);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        stream.checkNoSpaceLeft();
        return out;
    }

    /** {@code request} with a credential for node {@code node}. */
    public static LaunchStepRequest sign(LaunchStepRequest request, String node, ClusterCredentials keys, Instant now) {
        LaunchStepRequest body = request.getCredential().isEmpty()
                ? request
                : request.toBuilder().clearCredential().build();
        String token = keys.issue(owner(body.getOwner(), node), DaemonAuth.NODED, canonical(body), now, TTL);
        return body.toBuilder().setCredential(token).build();
    }

    private static Principal owner(Identity id, String node) {
        return new Principal(id.getUid(), id.getGid(), id.getUserName(), List.of(), node);
    }

    static byte[] canonical(MessageLite message) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(message.getSerializedSize());
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        out.useDeterministicSerialization();
        try {
            message.writeTo(out);
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** The node daemon's side: accepts each launch credential once, and only for this node. */
    public static final class Checker {
        private final Supplier<ClusterCredentials> keys;
        private final String nodeName;
        private final InstantSource clock;
        private final NonceCache nonces = new NonceCache();
        private final Map<String, Instant> steps = new ConcurrentHashMap<>();

        public Checker(Supplier<ClusterCredentials> keys, String nodeName, InstantSource clock) {
            this.keys = requireNonNull(keys, "keys is null");
            this.nodeName = requireNonNull(nodeName, "nodeName is null");
            this.clock = requireNonNull(clock, "clock is null");
        }

        /**
         * @return the launch as signed: the bytes its credential covers, with the credential. A
         *     node daemon keeps these as they are: the request serialised once, here, for both.
         * @throws AuthException with Slurm's wording, when the launch must not run
         */
        public byte[] check(LaunchBatchJobRequest request) throws AuthException {
            byte[] canonical = canonical(request.toBuilder().clearCredential().build());
            verify(request.getCredential(), canonical, request.getSpec().getOwner(), null);
            return withCredential(canonical, request.getCredential());
        }

        /** @throws AuthException with Slurm's wording, when the launch must not run */
        public void check(LaunchStepRequest request) throws AuthException {
            verify(
                    request.getCredential(),
                    canonical(request.toBuilder().clearCredential().build()),
                    request.getOwner(),
                    request.getJobId() + "." + request.getStepId());
        }

        private void verify(String token, byte[] canonical, Identity owner, String stepKey) throws AuthException {
            if (token.isEmpty()) {
                throw new AuthException("Invalid job credential: the launch carries none");
            }
            Instant now = clock.instant();
            ClusterCredentials.Verified v;
            try {
                v = keys.get().verify(token, DaemonAuth.NODED, canonical, now);
            } catch (AuthException e) {
                String reason = e.getMessage();
                throw new AuthException((reason.startsWith("credential expired")
                                ? "Job credential expired: "
                                : "Invalid job credential: ")
                        + reason);
            }
            Principal p = v.principal();
            if (!p.host().equals(nodeName)) {
                throw new AuthException(
                        "Invalid job credential: issued for node " + p.host() + ", this is " + nodeName);
            }
            if (p.uid() != owner.getUid() || p.gid() != owner.getGid()) {
                throw new AuthException("Invalid job credential: issued for uid " + p.uid() + " gid " + p.gid());
            }
            if (!nonces.firstUse(v.nonce(), v.expires(), now)) {
                throw new AuthException("Job credential replayed");
            }
            if (stepKey != null) {
                steps.values().removeIf(launched -> launched.plus(TTL).isBefore(now));
                if (steps.putIfAbsent(stepKey, now) != null) {
                    throw new AuthException("Job credential replayed: step " + stepKey + " already launched here");
                }
            }
        }
    }
}
