package dev.sluice.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.sluice.cli.command.sbatch.SbatchCommand;
import dev.sluice.cli.command.scontrol.ScontrolCommand;
import dev.sluice.cli.testing.CommandFixture;
import dev.sluice.cli.testing.Fixtures;
import dev.sluice.cli.testing.TestingInvocations.Output;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.text.RawText;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.GetJobsResponse;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.SlurmError;
import dev.sluice.protocol.v1.SubmitBatchJobResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * sbatch with bytes that are not UTF-8, scripts Slurm refuses, and answers the controller adds a
 * line to. Every message and exit status here was printed by Slurm 22.05's sbatch on this
 * machine (2026-12-02) for the same input.
 */
class TestHostileSubmissions {
    private volatile ClientResponse answer = ClientResponse.newBuilder()
            .setSubmitBatchJob(SubmitBatchJobResponse.newBuilder().setJobId(42))
            .build();

    @RegisterExtension
    final CommandFixture cli = new CommandFixture(req -> answer).withEnv("PATH", "/usr/bin:/bin");

    private Output sbatch(String... args) {
        return cli.run(new SbatchCommand(), args);
    }

    private JobSpec submitted() {
        assertThat(cli.controller().requests()).hasSize(1);
        return cli.controller().requests().get(0).getSubmitBatchJob().getSpec();
    }

    /** An argument or variable as the front end and RawProcess hand it over: every byte kept. */
    private static String raw(int... bytes) {
        byte[] b = new byte[bytes.length];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) bytes[i];
        }
        return RawText.decode(b);
    }

    @Test
    void aLatin1ByteInAScriptCommentIsSubmittedAsIs() throws IOException {
        byte[] script =
                "#!/bin/sh\n# caf\u00e9\n#SBATCH -J latin\necho \"v=$V\"\n".getBytes(StandardCharsets.ISO_8859_1);
        Files.write(cli.dir().resolve("lat.sh"), script);
        Output o = sbatch("lat.sh");
        assertThat(o).isEqualTo(new Output(0, "Submitted batch job 42\n", ""));
        assertThat(submitted().getScript().toByteArray()).containsExactly(script);
        assertThat(submitted().getName()).isEqualTo("latin");
    }

    @Test
    void invalidUtf8InWrapAndInTheEnvironmentReachesTheControllerUnchanged() {
        cli.env().put("V", raw('x', 0xe9, 'y'));
        Output o = sbatch(
                "--wrap", raw('e', 'c', 'h', 'o', ' ', 'a', 0xe9, 'b'), "--export=ALL," + raw('W', '=', 'p', 0xff));
        assertThat(o.exitCode()).isZero();
        JobSpec spec = submitted();
        assertThat(spec.getScript().toByteArray())
                .containsExactly(concat(
                        "#!/bin/sh\n# This script was created by sbatch --wrap.\n\necho a",
                        new byte[] {(byte) 0xe9},
                        "b\n"));
        assertThat(spec.getEnvironmentMap().get("V").toByteArray()).containsExactly('x', 0xe9, 'y');
        assertThat(spec.getEnvironmentMap().get("W").toByteArray()).containsExactly('p', 0xff);
    }

    @Test
    void throughTheAgentTheBytesSurviveTheFrontEndsFramesToo() {
        cli.env().put("V", raw('x', 0xe9, 'y'));
        cli.runBothWays(new SbatchCommand(), Fixtures.LATER_NOW, "--wrap", raw('a', 0xff));
        assertThat(cli.controller().requests()).hasSize(2);
        for (var request : cli.controller().requests()) {
            JobSpec spec = request.getSubmitBatchJob().getSpec();
            assertThat(spec.getScript().toByteArray()).endsWith('\n', 'a', 0xff, '\n');
            assertThat(spec.getEnvironmentMap().get("V").toByteArray()).containsExactly('x', 0xe9, 'y');
        }
    }

    @Test
    void aTextFieldWithABadByteGetsTheReplacementCharacterAsBefore() {
        sbatch("-J", raw('x', 0xe9), "--wrap", "true");
        assertThat(submitted().getName()).isEqualTo("x\uFFFD");
    }

    @Test
    void aNulAnywhereInTheScriptIsRefusedAsSlurmRefusesIt() throws IOException {
        Files.write(
                cli.dir().resolve("nul.sh"),
                "#!/bin/sh\n#SBATCH -J ab\0cd\necho hi\n".getBytes(StandardCharsets.UTF_8));
        assertThat(sbatch("nul.sh"))
                .isEqualTo(new Output(
                        1,
                        "",
                        "sbatch: error: The Slurm controller does not allow scripts that\n"
                                + "sbatch: error: contain a NULL character '\\0'.\n"));
        // Slurm reads up to the NUL for its first checks: a NUL alone is "only whitespace" ...
        Files.write(cli.dir().resolve("nul2.sh"), new byte[] {0});
        assertThat(sbatch("nul2.sh").err()).isEqualTo("sbatch: error: Batch script contains only whitespace!\n");
        // ... a NUL comes before DOS line breaks, and after the #! check.
        Files.write(cli.dir().resolve("nul3.sh"), "#!/bin/sh\r\necho hi\0\n".getBytes(StandardCharsets.UTF_8));
        assertThat(sbatch("nul3.sh").err()).startsWith("sbatch: error: The Slurm controller does not allow");
        Files.write(cli.dir().resolve("nul4.sh"), "echo hi\0\n".getBytes(StandardCharsets.UTF_8));
        assertThat(sbatch("nul4.sh").err()).startsWith("sbatch: error: This does not look like a batch script.");
        assertThat(cli.controller().requests()).isEmpty();
    }

    @Test
    void theControllersExtraLineIsPrintedBeforeTheFailure() {
        answer = ClientResponse.newBuilder()
                .setError(SlurmError.newBuilder()
                        .setCode(ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE.number())
                        .setMessage(ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE.text())
                        .setUserMessage("Memory specification can not be satisfied"))
                .build();
        assertThat(sbatch("--mem=9000000", "--wrap", "true"))
                .isEqualTo(
                        new Output(
                                1,
                                "",
                                "sbatch: error: Memory specification can not be satisfied\n"
                                        + "sbatch: error: Batch job submission failed: Requested node configuration is not available\n"));
    }

    @Test
    void aScriptNoControllerCouldReadIsRefusedWithSlurmsAnswerNotAConnectionFailure() throws IOException {
        byte[] big = new byte[17 * 1024 * 1024];
        java.util.Arrays.fill(big, (byte) '#');
        byte[] head = "#!/bin/sh\n".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(head, 0, big, 0, head.length);
        big[big.length - 1] = '\n';
        Files.write(cli.dir().resolve("big.sh"), big);
        assertThat(sbatch("big.sh"))
                .isEqualTo(
                        new Output(
                                1,
                                "",
                                "sbatch: error: Batch job submission failed: Pathname of a file, directory or other parameter too long\n"));
        assertThat(cli.controller().requests()).isEmpty();
    }

    @Test
    void scontrolWritesTheScriptBackByteForByte() throws IOException {
        byte[] script = "#!/bin/sh\n# caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1);
        answer = ClientResponse.newBuilder()
                .setGetJobs(GetJobsResponse.newBuilder()
                        .addJobs(Fixtures.job(
                                        33,
                                        Fixtures.wrapSpec().setScript(ByteString.copyFrom(script)),
                                        dev.sluice.protocol.v1.JobState.PENDING)
                                .build()))
                .build();
        Output o = cli.run(new ScontrolCommand(), "write", "batch_script", "33", "out.sh");
        assertThat(o.exitCode()).isZero();
        assertThat(Files.readAllBytes(cli.dir().resolve("out.sh"))).containsExactly(script);
    }

    private static byte[] concat(String a, byte[] b, String c) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.writeBytes(a.getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(b);
        out.writeBytes(c.getBytes(StandardCharsets.US_ASCII));
        return out.toByteArray();
    }
}
