package dev.sluice.ctld.rpc;

import com.google.protobuf.ByteString;
import dev.sluice.common.auth.ClusterCredentials;
import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.common.auth.Principal;
import dev.sluice.common.conf.GresConfReader;
import dev.sluice.common.conf.SlurmConf;
import dev.sluice.ctld.config.ConfigText;
import dev.sluice.ctld.config.CtldConfig;
import dev.sluice.ctld.config.CtldConfigs;
import dev.sluice.ctld.server.CtldServer;
import dev.sluice.protocol.Frames;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.SignedRequest;
import dev.sluice.protocol.v1.SubmitBatchJobRequest;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A controller started in-process on 127.0.0.1 with a cluster key in its configuration
 * directory, and a client that signs requests with that key as any user, the way a holder of
 * the key (root, SlurmUser, a login-node agent) can. Nodes never register; nothing runs.
 */
final class SecuredController implements AutoCloseable {
    static final Principal ROOT = new Principal(0, 0, "root", List.of(), "localhost");
    static final Principal ALICE = new Principal(1001, 1001, "alice", List.of(), "login1");
    static final Principal BOB = new Principal(1002, 1002, "bob", List.of(), "login1");

    final Path dir;
    final ClusterKeys keys;
    final CtldServer server;
    final CtldConfig config;

    /** @param extraConf lines added to slurm.conf (PrivateData=jobs, AuthAltTypes=...) */
    SecuredController(Path dir, String extraConf) throws Exception {
        this.dir = dir;
        Path key = dir.resolve(ClusterKeys.KEY_FILE);
        if (!Files.exists(key)) {
            ClusterKeys.generate(key);
        }
        this.keys = ClusterKeys.loadFromConfigDir(dir);
        SlurmConf sc = ConfigText.slurmConf(
                dir,
                String.join(
                        "\n",
                        "ClusterName=secure",
                        "SlurmctldHost=localhost",
                        "StateSaveLocation=" + dir.resolve("state"),
                        "NodeName=n1 CPUs=4 RealMemory=4000 State=UNKNOWN",
                        "PartitionName=debug Nodes=n1 Default=YES MaxTime=60 State=UP",
                        extraConf,
                        ""));
        // Ports the kernel picks: the frames go to server.commandPort().
        config = CtldConfigs.from(
                        sc,
                        GresConfReader.parse("", "gres.conf"),
                        0,
                        Map.of(),
                        keys,
                        CtldConfigs.security(sc, Optional.empty()))
                .withPorts(0, 0);
        server = CtldServer.start(config, Clock.systemUTC(), "127.0.0.1", false, e -> {}, (effect, image) -> {});
    }

    /** A frame signed for {@code who}, valid from now for the default lifetime. */
    SignedRequest signed(ClientRequest request, Principal who) {
        return signed(request, who, keys, Instant.now(), ClusterCredentials.DEFAULT_TTL);
    }

    static SignedRequest signed(ClientRequest request, Principal who, ClusterKeys with, Instant issued, Duration ttl) {
        byte[] body = request.toByteArray();
        return SignedRequest.newBuilder()
                .setRequest(ByteString.copyFrom(body))
                .setCredential(new ClusterCredentials(with).issue(who, "slurmctld", body, issued, ttl))
                .build();
    }

    static SignedRequest bare(ClientRequest request) {
        return SignedRequest.newBuilder().setRequest(request.toByteString()).build();
    }

    ClientResponse call(ClientRequest request, Principal who) throws IOException {
        return send(signed(request, who));
    }

    /** One frame on a fresh TCP connection, as the commands send it. */
    ClientResponse send(SignedRequest frame) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.commandPort())) {
            s.setSoTimeout(30_000);
            Frames.write(frame, s.getOutputStream());
            return Frames.read(ClientResponse.parser(), s.getInputStream());
        }
    }

    static ClientRequest.Builder request() {
        return ClientRequest.newBuilder()
                .setProtocolVersion(Frames.PROTOCOL_VERSION)
                .setRequestId(7);
    }

    static ClientRequest submit(String name) {
        return request()
                .setSubmitBatchJob(SubmitBatchJobRequest.newBuilder()
                        .setSpec(JobSpec.newBuilder()
                                .setName(name)
                                .setScript(com.google.protobuf.ByteString.copyFromUtf8("#!/bin/sh\ntrue\n"))
                                .setNumTasks(1)
                                .setWorkDir("/tmp")))
                .build();
    }

    int submitAs(Principal who, String name) throws IOException {
        ClientResponse r = call(submit(name), who);
        if (r.hasError()) {
            throw new IllegalStateException(r.getError().getMessage());
        }
        return r.getSubmitBatchJob().getJobId();
    }

    @Override
    public void close() {
        server.close();
    }
}
