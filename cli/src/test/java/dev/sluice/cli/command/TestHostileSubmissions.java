package dev.sluice.cli.command;

import static dev.sluice.cli.testing.TestingInvocations.confFor;
import static dev.sluice.cli.testing.TestingInvocations.invocation;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.sluice.cli.command.sbatch.SbatchCommand;
import dev.sluice.cli.command.scontrol.ScontrolCommand;
import dev.sluice.cli.testing.FakeController;
import dev.sluice.cli.testing.Fixtures;
import dev.sluice.cli.testing.TestingInvocations;
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
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sbatch with bytes that are not UTF-8, scripts Slurm refuses, and answers the controller adds a
 * line to. Every message and exit status here was printed by Slurm 22.05's sbatch on this
 * machine (2026-12-02) for the same input.
 */
class TestHostileSubmissions {
    @TempDir
    Path dir;

    private FakeController controller;
    private Map<String, String> env;
    private volatile ClientResponse answer = ClientResponse.newBuilder()
            .setSubmitBatchJob(SubmitBatchJobResponse.newBuilder().setJobId(42))
            .build();

    @BeforeEach
    void start() throws IOException {
        controller = new FakeController(req -> answer);
        env = new HashMap<>(confFor(dir, controller.port()));
        env.put("PATH", "/usr/bin:/bin");
    }

    @AfterEach
    void stop() throws IOException {
        controller.close();
    }

    private Output sbatch(String... args) {
        return TestingInvocations.run(new SbatchCommand(), invocation(dir, env, "", args));
    }

    private JobSpec submitted() {
        assertThat(controller.requests()).hasSize(1);
        return controller.requests().get(0).getSubmitBatchJob().getSpec();
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
        Files.write(dir.resolve("lat.sh"), script);
        Output o = sbatch("lat.sh");
        assertThat(o).isEqualTo(new Output(0, "Submitted batch job 42\n", ""));
        assertThat(submitted().getScript().toByteArray()).containsExactly(script);
        assertThat(submitted().getName()).isEqualTo("latin");
    }

    @Test
    void invalidUtf8InWrapAndInTheEnvironmentReachesTheControllerUnchanged() {
        env.put("V", raw('x', 0xe9, 'y'));
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
        env.put("V", raw('x', 0xe9, 'y'));
        TestingInvocations.runBothWays(new SbatchCommand(), Fixtures.LATER_NOW, dir, env, "", "--wrap", raw('a', 0xff));
        assertThat(controller.requests()).hasSize(2);
        for (var request : controller.requests()) {
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
        Files.write(dir.resolve("nul.sh"), "#!/bin/sh\n#SBATCH -J ab\0cd\necho hi\n".getBytes(StandardCharsets.UTF_8));
        assertThat(sbatch("nul.sh"))
                .isEqualTo(new Output(
                        1,
                        "",
                        "sbatch: error: The Slurm controller does not allow scripts that\n"
                                + "sbatch: error: contain a NULL character '\\0'.\n"));
        // Slurm reads up to the NUL for its first checks: a NUL alone is "only whitespace" ...
        Files.write(dir.resolve("nul2.sh"), new byte[] {0});
        assertThat(sbatch("nul2.sh").err()).isEqualTo("sbatch: error: Batch script contains only whitespace!\n");
        // ... a NUL comes before DOS line breaks, and after the #! check.
        Files.write(dir.resolve("nul3.sh"), "#!/bin/sh\r\necho hi\0\n".getBytes(StandardCharsets.UTF_8));
        assertThat(sbatch("nul3.sh").err()).startsWith("sbatch: error: The Slurm controller does not allow");
        Files.write(dir.resolve("nul4.sh"), "echo hi\0\n".getBytes(StandardCharsets.UTF_8));
        assertThat(sbatch("nul4.sh").err()).startsWith("sbatch: error: This does not look like a batch script.");
        assertThat(controller.requests()).isEmpty();
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
        Files.write(dir.resolve("big.sh"), big);
        assertThat(sbatch("big.sh"))
                .isEqualTo(
                        new Output(
                                1,
                                "",
                                "sbatch: error: Batch job submission failed: Pathname of a file, directory or other parameter too long\n"));
        assertThat(controller.requests()).isEmpty();
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
        Output o = TestingInvocations.run(
                new ScontrolCommand(), invocation(dir, env, "", "write", "batch_script", "33", "out.sh"));
        assertThat(o.exitCode()).isZero();
        assertThat(Files.readAllBytes(dir.resolve("out.sh"))).containsExactly(script);
    }

    private static byte[] concat(String a, byte[] b, String c) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.writeBytes(a.getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(b);
        out.writeBytes(c.getBytes(StandardCharsets.US_ASCII));
        return out.toByteArray();
    }
}
