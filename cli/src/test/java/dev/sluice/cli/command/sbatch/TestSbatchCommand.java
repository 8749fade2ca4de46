package dev.sluice.cli.command.sbatch;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.sluice.cli.testing.CommandFixture;
import dev.sluice.cli.testing.TestingInvocations.Output;
import dev.sluice.protocol.v1.JobSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * sbatch end to end through the command socket. Messages and exit statuses were observed with
 * Slurm 22.05's sbatch on the same command lines (noted per test).
 */
class TestSbatchCommand {
    @RegisterExtension
    final CommandFixture cli = CommandFixture.acceptingBatchJobs(42)
            .withEnv("PATH", "/usr/bin:/bin")
            .withEnv("SLURM_TEST_VAR", "kept");

    private Output sbatch(String stdin, String... args) {
        return cli.runWithInput(new SbatchCommand(), stdin, args);
    }

    @Test
    void wrapSubmitsSlurmsWrapperScript() {
        Output o = sbatch("", "-N2", "--gres=gpu:2", "-J", "gpujob", "--wrap", "sleep 60");
        assertThat(o.out()).isEqualTo("Submitted batch job 42\n");
        assertThat(o.err()).isEmpty();
        assertThat(o.exitCode()).isZero();
        JobSpec spec = cli.submitted();
        // scontrol write batch_script on a real --wrap job prints exactly this text.
        assertThat(spec.getScript().toStringUtf8())
                .isEqualTo("#!/bin/sh\n# This script was created by sbatch --wrap.\n\nsleep 60\n");
        assertThat(spec.getName()).isEqualTo("gpujob");
        assertThat(spec.getMinNodes()).isEqualTo(2);
        assertThat(spec.getMaxNodes()).isEqualTo(2);
        assertThat(spec.getGresPerNode()).isEqualTo("gpu:2");
        assertThat(spec.getWorkDir()).isEqualTo(cli.dir().toString());
        assertThat(spec.getTimeLimitMinutes()).isEqualTo(0xfffffffe);
        assertThat(spec.getRequeue()).isTrue();
        // Neither --requeue nor --no-requeue: the controller's JobRequeue decides.
        assertThat(spec.getRequeueSet()).isFalse();
        assertThat(spec.getWrapped()).isTrue();
        assertThat(spec.getCommand()).isEmpty();
        assertThat(spec.getOwner().getUserName()).isEqualTo("root");
        assertThat(spec.getSubmitHost()).isEqualTo("localhost");
        assertThat(spec.getEnvironmentMap()).containsEntry("PATH", ByteString.copyFromUtf8("/usr/bin:/bin"));
        assertThat(cli.controller().requests().get(0).getProtocolVersion()).isEqualTo(1);
        assertThat(cli.controller().requests().get(0).getIdentity().getUserName())
                .isEqualTo("root");
    }

    @Test
    void commandLineBeatsEnvironmentBeatsDirectives() throws IOException {
        Path script = cli.dir().resolve("job.sh");
        Files.writeString(
                script, "#!/bin/sh\n#SBATCH -J fromscript -p fromscript -t 10\n#SBATCH --comment=c\nhostname\n");
        cli.env().put("SBATCH_JOB_NAME", "fromenv");
        cli.env().put("SBATCH_PARTITION", "fromenv");
        Output o = sbatch("", "-p", "fromcli", "job.sh", "arg1");
        assertThat(o.exitCode()).isZero();
        JobSpec spec = cli.submitted();
        assertThat(spec.getName()).isEqualTo("fromenv");
        assertThat(spec.getPartition()).isEqualTo("fromcli");
        assertThat(spec.getTimeLimitMinutes()).isEqualTo(10);
        assertThat(spec.getComment()).isEqualTo("c");
        assertThat(spec.getScriptArgsList()).containsExactly("arg1");
        assertThat(spec.getCommand()).isEqualTo(script.toString());
    }

    @Test
    void defaultNamesFollowTheScriptSource() throws IOException {
        Files.writeString(cli.dir().resolve("t.sh"), "#!/bin/sh\ntrue\n");
        sbatch("", "t.sh");
        sbatch("#!/bin/sh\ntrue\n");
        assertThat(cli.controller().requests())
                .extracting(r -> r.getSubmitBatchJob().getSpec().getName())
                .containsExactly("t.sh", "sbatch");
    }

    @Test
    void parsableAndQuiet() {
        assertThat(sbatch("", "--parsable", "--wrap", "true").out()).isEqualTo("42\n");
        // Slurm: -Q suppresses the message, even with --parsable.
        assertThat(sbatch("", "-Q", "--parsable", "--wrap", "true").out()).isEmpty();
    }

    @Test
    void clustersNamesThisClusterOrIsRefused() {
        // Recorded from Slurm 22.05 (compat 027): --parsable -M CLUSTER prints "ID;CLUSTER".
        assertThat(sbatch("", "--parsable", "-M", "test", "--wrap", "true").out())
                .isEqualTo("42;test\n");
        assertThat(sbatch("", "--clusters=test", "--wrap", "true").out())
                .isEqualTo("Submitted batch job 42 on cluster test\n");
        Output other = sbatch("", "-M", "elsewhere", "--wrap", "true");
        assertThat(other.exitCode()).isEqualTo(1);
        assertThat(other.err()).startsWith("sbatch: error: No cluster 'elsewhere' known by database.\n");
        assertThat(cli.controller().requests()).hasSize(2);
    }

    @Test
    void aWckeyIsTakenAsSlurmDoesWithoutTrackWCKey() {
        // Workflow tools pass #SBATCH --wckey=...; Sluice tracks no WCKeys (TrackWCKey=no), where
        // Slurm takes the option and the job runs.
        Output o = sbatch("#!/bin/sh\n#SBATCH --wckey=proj1\ntrue\n", "--wckey=proj2");
        assertThat(o.exitCode()).isZero();
        assertThat(o.out()).isEqualTo("Submitted batch job 42\n");
        cli.env().put("SBATCH_WCKEY", "proj3");
        assertThat(sbatch("", "--wrap", "true").exitCode()).isZero();
    }

    @Test
    void optionValuesAreTranslated() {
        Output o = sbatch(
                "",
                "-n4",
                "-c2",
                "--ntasks-per-node=2",
                "-N",
                "2-3",
                "--mem=1G",
                "-w",
                "n[1-2]",
                "-x",
                "n3",
                "--exclusive",
                "-A",
                "acct",
                "--no-requeue",
                "--open-mode=append",
                "-e",
                "err.txt",
                "-D",
                "/tmp",
                "--nice",
                "-t",
                "1-02:03:04",
                "-H",
                "--wrap",
                "hostname");
        assertThat(o.exitCode()).isZero();
        JobSpec spec = cli.submitted();
        assertThat(spec.getNumTasks()).isEqualTo(4);
        assertThat(spec.getCpusPerTask()).isEqualTo(2);
        assertThat(spec.getNtasksPerNode()).isEqualTo(2);
        assertThat(spec.getMinNodes()).isEqualTo(2);
        assertThat(spec.getMaxNodes()).isEqualTo(3);
        assertThat(spec.getMemPerNodeMb()).isEqualTo(1024);
        assertThat(spec.getReqNodes()).isEqualTo("n[1-2]");
        assertThat(spec.getExcludeNodes()).isEqualTo("n3");
        assertThat(spec.getExclusive()).isTrue();
        assertThat(spec.getAccount()).isEqualTo("acct");
        assertThat(spec.getRequeue()).isFalse();
        assertThat(spec.getRequeueSet()).isTrue();
        assertThat(spec.getOpenMode()).isEqualTo("append");
        assertThat(spec.getStdErr()).isEqualTo("err.txt");
        assertThat(spec.getWorkDir()).isEqualTo("/tmp");
        assertThat(spec.getNice()).isEqualTo(100);
        // Slurm rounds seconds up: scontrol shows TimeLimit=1-02:04:00.
        assertThat(spec.getTimeLimitMinutes()).isEqualTo(26 * 60 + 4);
        assertThat(spec.getHold()).isTrue();
    }

    @Test
    void gpuOptionsAreTranslated() {
        Output o = sbatch(
                "",
                "-G",
                "a100:3",
                "--gpus-per-node=2",
                "--gpus-per-task=1",
                "-n3",
                "--cpus-per-gpu=4",
                "--mem-per-gpu=2G",
                "--gres-flags=enforce-binding",
                "--wrap",
                "true");
        assertThat(o.exitCode()).as(o.err()).isZero();
        JobSpec spec = cli.submitted();
        assertThat(spec.getGpus()).isEqualTo("a100:3");
        assertThat(spec.getGpusPerNode()).isEqualTo("2");
        assertThat(spec.getGpusPerTask()).isEqualTo("1");
        assertThat(spec.getCpusPerGpu()).isEqualTo(4);
        assertThat(spec.getMemPerGpuMb()).isEqualTo(2048);
        assertThat(spec.getGresFlags()).isEqualTo("enforce-binding");
    }

    @Test
    void gresFlagsAreReadInAnyCaseAndSentInSlurmsWord() {
        Output o = sbatch("", "--gres-flags=Disable-BINDING", "--wrap", "true");
        assertThat(o.exitCode()).as(o.err()).isZero();
        assertThat(cli.submitted().getGresFlags()).isEqualTo("disable-binding");
    }

    @Test
    void arraysDependenciesAndBeginTimes() {
        Output o = sbatch(
                "",
                "--array=1-4%2",
                "-d",
                "afterok:5",
                "--kill-on-invalid-dep=yes",
                "--begin=now+1hour",
                "--wrap",
                "true");
        assertThat(o.exitCode()).as(o.err()).isZero();
        JobSpec spec = cli.submitted();
        assertThat(spec.getArray()).isEqualTo("1-4%2");
        assertThat(spec.getDependency()).isEqualTo("afterok:5");
        assertThat(spec.getKillOnInvalidDep()).isTrue();
        // "now" is the invocation's clock: 2026-11-29T08:47:04Z
        assertThat(spec.getBeginTime())
                .isEqualTo(java.time.Instant.parse("2026-11-29T09:47:04Z").getEpochSecond());
    }

    @Test
    void aDeadlineReachesTheControllerAsEpochSeconds() {
        // The controller ends the job DEADLINE once its time limit can no longer end before it.
        Output o = sbatch("", "-t", "10", "--deadline=now+2hours", "--wrap", "true");
        assertThat(o.exitCode()).as(o.err()).isZero();
        assertThat(cli.submitted().getDeadline())
                .isEqualTo(java.time.Instant.parse("2026-11-29T10:47:04Z").getEpochSecond());
    }

    @Test
    void arrayIndexesFromTheEnvironment() {
        cli.env().put("SBATCH_ARRAY_INX", "0-3");
        sbatch("", "--wrap", "true");
        assertThat(cli.submitted().getArray()).isEqualTo("0-3");
    }

    @Test
    void timeZeroAndUnlimitedMeanNoLimit() {
        sbatch("", "-t", "0", "--wrap", "true");
        sbatch("", "-t", "UNLIMITED", "--wrap", "true");
        assertThat(cli.controller().requests())
                .extracting(r -> r.getSubmitBatchJob().getSpec().getTimeLimitMinutes())
                .containsExactly(0xffffffff, 0xffffffff);
    }

    @Test
    void exportSelectsTheJobEnvironment() {
        sbatch("", "--export=NONE", "--wrap", "true");
        sbatch("", "--export=FOO=bar,PATH", "--wrap", "true");
        sbatch("", "--export=ALL,PATH=/override,NEW=1", "--wrap", "true");
        var envs = cli.controller().requests().stream()
                .map(r -> text(r.getSubmitBatchJob().getSpec().getEnvironmentMap()))
                .toList();
        // sbatch(1): SLURM_* variables always pass; with ALL the caller's own values win. sbatch
        // adds where it ran and the --export it was given (as Slurm 22.05's does, compat 037).
        assertThat(envs.get(0))
                .containsOnlyKeys(
                        "SLURM_TEST_VAR", "SLURM_CONF", "SLURM_SUBMIT_DIR", "SLURM_EXPORT_ENV", "SLURM_JOB_NAME")
                .containsEntry("SLURM_EXPORT_ENV", "NONE");
        assertThat(envs.get(1))
                .containsOnlyKeys(
                        "SLURM_TEST_VAR",
                        "SLURM_CONF",
                        "SLURM_SUBMIT_DIR",
                        "SLURM_EXPORT_ENV",
                        "SLURM_JOB_NAME",
                        "FOO",
                        "PATH");
        assertThat(envs.get(1)).containsEntry("FOO", "bar").containsEntry("PATH", "/usr/bin:/bin");
        assertThat(envs.get(2)).containsEntry("PATH", "/usr/bin:/bin").containsEntry("NEW", "1");
    }

    @Test
    void sbatchNamesTheJobToItsEnvironmentUnlessTheScriptCameFromStandardInput() {
        sbatch("", "--wrap", "true");
        sbatch("#!/bin/sh\ntrue\n");
        sbatch("#!/bin/sh\ntrue\n", "-J", "piped");
        var specs = cli.controller().requests().stream()
                .map(r -> r.getSubmitBatchJob().getSpec())
                .toList();
        assertThat(text(specs.get(0).getEnvironmentMap())).containsEntry("SLURM_JOB_NAME", "wrap");
        // Slurm 22.05 names it "sbatch" on the controller and leaves the variable unset (compat 034).
        assertThat(specs.get(1).getName()).isEqualTo("sbatch");
        assertThat(text(specs.get(1).getEnvironmentMap())).doesNotContainKey("SLURM_JOB_NAME");
        assertThat(text(specs.get(2).getEnvironmentMap())).containsEntry("SLURM_JOB_NAME", "piped");
    }

    /** Observed with Slurm 22.05: NUL separates definitions, a newline is part of a value, the file wins over the caller's environment, and --export=NONE drops them. */
    @Test
    void exportFileSetsNulSeparatedDefinitions() throws IOException {
        Path file = cli.dir().resolve("vars");
        Files.write(file, "EFA=one\0EFB=two words\nand a line\0SLURM_TEST_VAR=from the file\0".getBytes());
        Output o = sbatch("", "--export-file=" + file, "--wrap", "true");
        assertThat(o.exitCode()).as(o.err()).isZero();
        assertThat(text(cli.submitted().getEnvironmentMap()))
                .containsEntry("EFA", "one")
                .containsEntry("EFB", "two words\nand a line")
                .containsEntry("SLURM_TEST_VAR", "from the file")
                .containsEntry("PATH", "/usr/bin:/bin");
    }

    private static Map<String, String> text(Map<String, ByteString> env) {
        Map<String, String> out = new HashMap<>();
        env.forEach((k, v) -> out.put(k, v.toStringUtf8()));
        return out;
    }
}
