package dev.sluice.ctld.rpc;

import static dev.sluice.ctld.rpc.SecuredController.ALICE;
import static dev.sluice.ctld.rpc.SecuredController.BOB;
import static dev.sluice.ctld.rpc.SecuredController.ROOT;
import static dev.sluice.ctld.rpc.SecuredController.request;
import static dev.sluice.ctld.rpc.SecuredController.submit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.common.auth.UserTokens;
import dev.sluice.protocol.Frames;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.GenerateTokenRequest;
import dev.sluice.protocol.v1.GetJobsRequest;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.SignedRequest;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tokens, PrivateData=jobs, size limits and the local socket, against a controller started
 * in-process with the matching slurm.conf.
 */
class TestCommandAccess {
    @TempDir
    Path dir;

    private static ClientRequest jobs() {
        return request().setGetJobs(GetJobsRequest.getDefaultInstance()).build();
    }

    private static ClientRequest token(String user, long lifespan) {
        return request()
                .setGenerateToken(
                        GenerateTokenRequest.newBuilder().setUserName(user).setLifespanSeconds(lifespan))
                .build();
    }

    private static SignedRequest withToken(ClientRequest request, String token) {
        return SignedRequest.newBuilder()
                .setRequest(request.toByteString())
                .setUserToken(token)
                .build();
    }

    @Test
    void tokensAreMintedForOneselfOrByOperatorsAndAcceptedUntilTheyExpire() throws Exception {
        ClusterKeys.generate(dir.resolve("jwt_hs256.key"));
        String conf = "AuthAltTypes=auth/jwt\nAuthAltParameters=jwt_key=" + dir.resolve("jwt_hs256.key");
        try (SecuredController ctld = new SecuredController(dir, conf)) {
            ClientResponse forBob = ctld.call(token("bob", 0), ALICE);
            assertThat(forBob.getError().getMessage()).isEqualTo("Access/permission denied");

            // root exists on every host, so its token maps to a uid here.
            String rootToken =
                    ctld.call(token("root", 60), ROOT).getGenerateToken().getToken();
            ClientResponse listed = ctld.send(withToken(
                    submit("by-token").toBuilder()
                            .setIdentity(Identity.newBuilder().setUid(4242).setUserName("mallory"))
                            .build(),
                    rootToken));
            assertThat(listed.hasError()).as(listed.toString()).isFalse();
            JobInfo job = ctld.call(jobs(), ROOT).getGetJobs().getJobs(0);
            assertThat(job.getSpec().getOwner().getUserName()).isEqualTo("root");
            assertThat(job.getSpec().getOwner().getUid()).isZero();

            UserTokens tokens = ctld.config.security().userTokens().orElseThrow();
            String expired = tokens.mint("root", Instant.now().minus(Duration.ofHours(2)), Duration.ofHours(1));
            assertThat(ctld.send(withToken(jobs(), expired)).getError().getMessage())
                    .isEqualTo("Protocol authentication error");
            String unknownUser = tokens.mint("no-such-user-here", Instant.now(), Duration.ofMinutes(5));
            assertThat(ctld.send(withToken(jobs(), unknownUser)).getError().getMessage())
                    .isEqualTo("Protocol authentication error");
            ClusterKeys.generate(dir.resolve("other.key"));
            String forged = new UserTokens(ClusterKeys.load(dir.resolve("other.key"))
                            .signingKey()
                            .secret())
                    .mint("root", Instant.now(), Duration.ofMinutes(5));
            assertThat(ctld.send(withToken(jobs(), forged)).getError().getMessage())
                    .isEqualTo("Protocol authentication error");
        }
    }

    /**
     * slurmrestd's X-SLURM-USER-NAME: root's (and SlurmUser's) token speaks for the user named
     * beside it; anyone else's is refused if it names another. "daemon" and "bin" are users
     * of every Linux host.
     */
    @Test
    void rootsTokenSpeaksForTheNamedUserAndNoOtherTokenDoes() throws Exception {
        ClusterKeys.generate(dir.resolve("jwt_hs256.key"));
        String conf = "AuthAltTypes=auth/jwt\nAuthAltParameters=jwt_key=" + dir.resolve("jwt_hs256.key");
        try (SecuredController ctld = new SecuredController(dir, conf)) {
            UserTokens tokens = ctld.config.security().userTokens().orElseThrow();
            String rootToken = tokens.mint("root", Instant.now(), Duration.ofMinutes(5));
            ClientResponse submitted = ctld.send(withToken(submit("for-daemon"), rootToken).toBuilder()
                    .setTokenUser("daemon")
                    .build());
            assertThat(submitted.hasError()).as(submitted.toString()).isFalse();
            JobInfo job = ctld.call(jobs(), ROOT).getGetJobs().getJobs(0);
            assertThat(job.getSpec().getOwner().getUserName()).isEqualTo("daemon");
            assertThat(job.getSpec().getOwner().getUid()).isEqualTo(1);

            String daemons = tokens.mint("daemon", Instant.now(), Duration.ofMinutes(5));
            for (String other : new String[] {"root", "bin"}) {
                ClientResponse refused = ctld.send(withToken(submit("as-" + other), daemons).toBuilder()
                        .setTokenUser(other)
                        .build());
                assertThat(refused.getError().getMessage()).isEqualTo("Protocol authentication error");
            }
            ClientResponse own = ctld.send(withToken(jobs(), daemons).toBuilder()
                    .setTokenUser("daemon")
                    .build());
            assertThat(own.hasError()).as(own.toString()).isFalse();
            assertThat(ctld.call(jobs(), ROOT).getGetJobs().getJobsList()).hasSize(1);
        }
    }

    @Test
    void withoutAJwtKeyNoTokenIsMinted() throws Exception {
        try (SecuredController ctld = new SecuredController(dir, "")) {
            assertThat(ctld.call(token("", 0), ALICE).getError().getMessage()).isEqualTo("Token Generation failed.");
        }
    }

    @Test
    void privateDataJobsHidesOtherUsersJobsFromNonOperators() throws Exception {
        try (SecuredController ctld = new SecuredController(dir, "PrivateData=jobs")) {
            int alices = ctld.submitAs(ALICE, "alices");
            int bobs = ctld.submitAs(BOB, "bobs");
            assertThat(ctld.call(jobs(), ALICE).getGetJobs().getJobsList())
                    .extracting(JobInfo::getJobId)
                    .containsExactly(alices);
            ClientResponse other = ctld.call(
                    request()
                            .setGetJobs(GetJobsRequest.newBuilder().addJobIds(bobs))
                            .build(),
                    ALICE);
            assertThat(other.getError().getMessage()).isEqualTo("Invalid job id specified");
            assertThat(ctld.call(jobs(), ROOT).getGetJobs().getJobsList())
                    .extracting(JobInfo::getJobId)
                    .containsExactlyInAnyOrder(alices, bobs);
        }
    }

    /** The whole-queue answer is shared between callers of one image, never past its privacy or age. */
    @Test
    void theSharedQueueAnswerKeepsPrivacyAndFollowsChanges() throws Exception {
        try (SecuredController ctld = new SecuredController(dir, "PrivateData=jobs")) {
            int alices = ctld.submitAs(ALICE, "alices");
            int bobs = ctld.submitAs(BOB, "bobs");
            assertThat(ctld.call(jobs(), ROOT).getGetJobs().getJobsList())
                    .extracting(JobInfo::getJobId)
                    .containsExactlyInAnyOrder(alices, bobs);
            assertThat(ctld.call(jobs(), ALICE).getGetJobs().getJobsList())
                    .extracting(JobInfo::getJobId)
                    .containsExactly(alices);
            int later = ctld.submitAs(BOB, "later");
            assertThat(ctld.call(jobs(), ROOT).getGetJobs().getJobsList())
                    .extracting(JobInfo::getJobId)
                    .containsExactlyInAnyOrder(alices, bobs, later);
            // A version says "any caller sees this": under PrivateData=jobs not even root's view
            // has one (sluice-restd shares the asks of tokens whose own ask got a version).
            assertThat(ctld.call(jobs(), ROOT).getGetJobs().getVersion()).isZero();
            assertThat(ctld.call(jobs(), ALICE).getGetJobs().getVersion()).isZero();
        }
        try (SecuredController open = new SecuredController(dir, "")) {
            open.submitAs(ALICE, "alices");
            assertThat(open.call(jobs(), ALICE).getGetJobs().getVersion()).isNotZero();
        }
    }

    /** squeue -j N: only N's records travel, an array's tasks included; unknown ids match nothing. */
    @Test
    void familyIdsSelectJobsAndTheTasksOfTheirArrays() throws Exception {
        try (SecuredController ctld = new SecuredController(dir, "")) {
            int plain = ctld.submitAs(ALICE, "plain");
            ClientRequest array = submit("arr").toBuilder()
                    .setSubmitBatchJob(submit("arr").getSubmitBatchJob().toBuilder()
                            .setSpec(submit("arr").getSubmitBatchJob().getSpec().toBuilder()
                                    .setArray("1-3")
                                    .setHold(true)))
                    .build();
            int arrayId = ctld.call(array, ALICE).getSubmitBatchJob().getJobId();
            ctld.submitAs(ALICE, "other");
            assertThat(family(ctld, plain)).extracting(JobInfo::getJobId).containsExactly(plain);
            assertThat(family(ctld, arrayId))
                    .allSatisfy(j -> assertThat(j.getArrayJobId()).isEqualTo(arrayId))
                    .isNotEmpty();
            assertThat(family(ctld, 999_999)).isEmpty();
        }
    }

    private static java.util.List<JobInfo> family(SecuredController ctld, int id) throws Exception {
        return ctld.call(
                        request()
                                .setGetJobs(GetJobsRequest.newBuilder().addFamilyIds(id))
                                .build(),
                        ROOT)
                .getGetJobs()
                .getJobsList();
    }

    @Test
    void scriptsAndEnvironmentsOverTheLimitsAreRefused() throws Exception {
        try (SecuredController ctld = new SecuredController(dir, "SchedulerParameters=max_script_size=1000")) {
            ClientRequest big = submit("big").toBuilder()
                    .setSubmitBatchJob(submit("big").getSubmitBatchJob().toBuilder()
                            .setSpec(submit("big").getSubmitBatchJob().getSpec().toBuilder()
                                    .setScript(com.google.protobuf.ByteString.copyFromUtf8(
                                            "#!/bin/sh\n" + "#".repeat(1000)))))
                    .build();
            assertThat(ctld.call(big, ALICE).getError().getMessage())
                    .isEqualTo("Pathname of a file, directory or other parameter too long");
            ClientRequest bigEnv = submit("env").toBuilder()
                    .setSubmitBatchJob(submit("env").getSubmitBatchJob().toBuilder()
                            .setSpec(submit("env").getSubmitBatchJob().getSpec().toBuilder()
                                    .putEnvironment(
                                            "HUGE",
                                            com.google.protobuf.ByteString.copyFromUtf8("x".repeat(5 * 1024 * 1024)))))
                    .build();
            assertThat(ctld.call(bigEnv, ALICE).getError().getMessage())
                    .isEqualTo("Pathname of a file, directory or other parameter too long");
            assertThat(ctld.call(jobs(), ROOT).getGetJobs().getJobsCount()).isZero();
            assertThat(ctld.call(submit("small"), ALICE).hasError()).isFalse();
        }
    }

    @Test
    void theLocalSocketKnowsItsPeerWhateverTheRequestClaims() throws Exception {
        try (SecuredController ctld = new SecuredController(dir, "")) {
            Path socket = Path.of(ctld.config.security().commandSocket());
            assertThat(socket).exists();
            ClientRequest lying = submit("local").toBuilder()
                    .setIdentity(Identity.newBuilder().setUid(1001).setGid(1001).setUserName("alice"))
                    .build();
            ClientResponse r;
            try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
                ch.connect(UnixDomainSocketAddress.of(socket));
                Frames.write(SecuredController.bare(lying), Channels.newOutputStream(ch));
                r = Frames.read(ClientResponse.parser(), Channels.newInputStream(ch));
            }
            assertThat(r.hasError()).as(r.toString()).isFalse();
            long me = new com.sun.security.auth.module.UnixSystem().getUid();
            JobInfo job = ctld.call(jobs(), ROOT).getGetJobs().getJobs(0);
            assertThat((long) job.getSpec().getOwner().getUid()).isEqualTo(me);
            assertThat(job.getSpec().getOwner().getUserName()).isNotEqualTo("alice");
        }
    }

    /**
     * A real other user: a child process dropped to {@code nobody} with setpriv sends a frame
     * claiming root; the kernel's peer credentials make it nobody, who may not drain a node.
     */
    @Test
    void aLocalUserIsWhoTheKernelSaysNotWhoTheFrameSays() throws Exception {
        long me = new com.sun.security.auth.module.UnixSystem().getUid();
        org.junit.jupiter.api.Assumptions.assumeTrue(me == 0, "needs root to become another user");
        org.junit.jupiter.api.Assumptions.assumeTrue(
                java.nio.file.Files.isExecutable(Path.of("/usr/bin/setpriv"))
                        && java.nio.file.Files.isExecutable(Path.of("/usr/bin/python3")),
                "needs setpriv and python3");
        try (SecuredController ctld = new SecuredController(dir, "")) {
            Path socket = Path.of(ctld.config.security().commandSocket());
            // Let nobody reach the socket (the temporary directories are private).
            // Only the test's own directories: the system's /tmp keeps its mode (1777).
            for (Path p = socket.getParent(); p != null && p.startsWith(dir); p = p.getParent()) {
                java.nio.file.Files.setPosixFilePermissions(
                        p, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
            }
            ClientRequest drain = request()
                    .setIdentity(Identity.newBuilder().setUid(0).setGid(0).setUserName("root"))
                    .setUpdateNode(dev.sluice.protocol.v1.UpdateNodeRequest.newBuilder()
                            .setNodeNames("n1")
                            .setState(dev.sluice.protocol.v1.NodeStateRequest.NODE_STATE_REQUEST_DRAIN)
                            .setReason("not yours"))
                    .build();
            java.io.ByteArrayOutputStream frame = new java.io.ByteArrayOutputStream();
            Frames.write(SecuredController.bare(drain), frame);
            Path request = dir.resolve("frame.bin");
            java.nio.file.Files.write(request, frame.toByteArray());
            java.nio.file.Files.setPosixFilePermissions(
                    request, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
            String client = "import socket,sys\n"
                    + "s=socket.socket(socket.AF_UNIX)\ns.connect(sys.argv[1])\n"
                    + "s.sendall(open(sys.argv[2],'rb').read())\ns.shutdown(socket.SHUT_WR)\n"
                    + "out=b''\nwhile True:\n    b=s.recv(65536)\n    if not b: break\n    out+=b\n"
                    + "sys.stdout.buffer.write(out)\n";
            Process p = new ProcessBuilder(
                            "/usr/bin/setpriv",
                            "--reuid=nobody",
                            "--regid=nogroup",
                            "--clear-groups",
                            "/usr/bin/python3",
                            "-c",
                            client,
                            socket.toString(),
                            request.toString())
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            byte[] answer = p.getInputStream().readAllBytes();
            assertThat(p.waitFor()).isZero();
            ClientResponse r = Frames.read(ClientResponse.parser(), new java.io.ByteArrayInputStream(answer));
            assertThat(r.getError().getMessage()).isEqualTo("Invalid user id");
            var node = ctld.call(
                            request()
                                    .setGetNodes(dev.sluice.protocol.v1.GetNodesRequest.getDefaultInstance())
                                    .build(),
                            ROOT)
                    .getGetNodes()
                    .getNodes(0);
            assertThat(node.getFlagsList()).doesNotContain("DRAIN");
        }
    }
}
