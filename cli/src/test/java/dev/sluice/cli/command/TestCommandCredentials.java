package dev.sluice.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.command.scancel.ScancelCommand;
import dev.sluice.cli.command.scontrol.ScontrolCommand;
import dev.sluice.cli.command.squeue.SqueueCommand;
import dev.sluice.cli.testing.CommandFixture;
import dev.sluice.cli.testing.TestingInvocations.Output;
import dev.sluice.common.auth.ClusterCredentials;
import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.protocol.Frames;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.GenerateTokenResponse;
import dev.sluice.protocol.v1.GetJobsResponse;
import dev.sluice.protocol.v1.SignalJobResponse;
import dev.sluice.protocol.v1.SignedRequest;
import dev.sluice.protocol.v1.SlurmError;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a command sends to prove who runs it — the local socket, else a credential made with a
 * readable cluster key, else {@code SLURM_JWT}, else nothing — and {@code scontrol token}.
 */
class TestCommandCredentials {
    @RegisterExtension
    final CommandFixture cli = new CommandFixture(req -> switch (req.getBodyCase()) {
        case GET_JOBS ->
            ClientResponse.newBuilder()
                    .setGetJobs(GetJobsResponse.getDefaultInstance())
                    .build();
        case GENERATE_TOKEN ->
            ClientResponse.newBuilder()
                    .setGenerateToken(GenerateTokenResponse.newBuilder().setToken("eyJ.tok.en"))
                    .build();
        default -> ClientResponse.getDefaultInstance();
    });

    @Test
    void withNothingToProveIdentityTheRequestGoesOutBare() {
        assertThat(cli.run(new SqueueCommand()).exitCode()).isZero();
        SignedRequest sent = cli.controller().envelopes().get(0);
        assertThat(sent.getCredential()).isEmpty();
        assertThat(sent.getUserToken()).isEmpty();
    }

    @Test
    void aTokenInTheEnvironmentRidesAlong() {
        cli.env().put("SLURM_JWT", "eyJhbGciOiJIUzI1NiJ9.e30.sig");
        cli.run(new SqueueCommand());
        assertThat(cli.controller().envelopes().get(0).getUserToken()).isEqualTo("eyJhbGciOiJIUzI1NiJ9.e30.sig");
    }

    @Test
    void aReadableClusterKeySignsTheExactRequestAsTheCaller() throws Exception {
        ClusterKeys.generate(cli.dir().resolve("slurm.key"));
        cli.env().put("SLURM_JWT", "ignored-when-the-key-signs");
        cli.run(new SqueueCommand());
        SignedRequest sent = cli.controller().envelopes().get(0);
        assertThat(sent.getUserToken()).isEmpty();
        var verified = new ClusterCredentials(ClusterKeys.load(cli.dir().resolve("slurm.key")))
                .verify(sent.getCredential(), "slurmctld", sent.getRequest().toByteArray(), Instant.now());
        assertThat(verified.principal().uid()).isZero();
        assertThat(verified.principal().userName()).isEqualTo("root");
    }

    @Test
    void theControllersLocalSocketIsPreferredAndNeedsNoCredential() throws Exception {
        ClusterKeys.generate(cli.dir().resolve("slurm.key"));
        Path state = Files.createDirectories(cli.dir().resolve("state"));
        Files.writeString(
                cli.dir().resolve("slurm.conf"),
                "StateSaveLocation=" + state + "\n",
                java.nio.file.StandardOpenOption.APPEND);
        List<SignedRequest> local = new CopyOnWriteArrayList<>();
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(state.resolve("slurmctld.socket")));
            Thread serving = Thread.ofVirtual().start(() -> {
                try (SocketChannel ch = server.accept()) {
                    SignedRequest r = Frames.read(SignedRequest.parser(), Channels.newInputStream(ch));
                    local.add(r);
                    Frames.write(
                            ClientResponse.newBuilder()
                                    .setRequestId(ClientRequest.parseFrom(r.getRequest())
                                            .getRequestId())
                                    .setGetJobs(GetJobsResponse.getDefaultInstance())
                                    .build(),
                            Channels.newOutputStream(ch));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThat(cli.run(new SqueueCommand()).exitCode()).isZero();
            serving.join(10_000);
        }
        assertThat(local).hasSize(1);
        assertThat(local.get(0).getCredential()).isEmpty();
        assertThat(cli.controller().requests()).isEmpty();
    }

    @Test
    void aRefusedCredentialIsPrintedAsSlurmPrintsThatCallsErrors() {
        cli.controller()
                .handler(req -> ClientResponse.newBuilder()
                        .setSignalJob(SignalJobResponse.getDefaultInstance())
                        .setError(SlurmError.newBuilder()
                                .setCode(ErrorCode.AUTHENTICATION_ERROR.number())
                                .setMessage(ErrorCode.AUTHENTICATION_ERROR.text()))
                        .build());
        Output out = cli.run(new ScancelCommand(), "5");
        assertThat(out.err()).isEqualTo("scancel: error: Kill job error on job id 5: Protocol authentication error\n");
        assertThat(out.exitCode()).isNotZero();
    }

    @Test
    void scontrolTokenPrintsTheTokenReadyToExport() {
        Output out = cli.run(new ScontrolCommand(), "token", "username=alice", "lifespan=600");
        assertThat(out.exitCode()).isZero();
        assertThat(out.out()).isEqualTo("SLURM_JWT=eyJ.tok.en\n");
        var asked = cli.controller().requests().get(0).getGenerateToken();
        assertThat(asked.getUserName()).isEqualTo("alice");
        assertThat(asked.getLifespanSeconds()).isEqualTo(600);
    }

    @Test
    void scontrolTokenFailuresPrintSlurmsWords() {
        cli.controller()
                .handler(req -> ClientResponse.newBuilder()
                        .setError(SlurmError.newBuilder()
                                .setCode(ErrorCode.AUTH_UNABLE_TO_GENERATE_TOKEN.number())
                                .setMessage(ErrorCode.AUTH_UNABLE_TO_GENERATE_TOKEN.text()))
                        .build());
        Output refused = cli.run(new ScontrolCommand(), "token");
        assertThat(refused.exitCode()).isEqualTo(1);
        assertThat(refused.err()).isEqualTo("Error fetching token\n");
        Output bad = cli.run(new ScontrolCommand(), "token", "user=alice");
        assertThat(bad.exitCode()).isEqualTo(1);
        assertThat(bad.err()).isEqualTo("Invalid option: `user=alice`\n");
        assertThat(cli.controller().requests()).hasSize(1);
    }
}
