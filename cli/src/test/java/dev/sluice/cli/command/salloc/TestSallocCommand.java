package dev.sluice.cli.command.salloc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.testing.CommandFixture;
import dev.sluice.cli.testing.TestingInvocations.Output;
import dev.sluice.protocol.v1.JobSpec;
import java.io.IOException;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * salloc with the shared submit-option model: the JobSpec sbatch would send for the same
 * options, salloc's own options, and Slurm's words for what it refuses. Expected lines are real
 * salloc 22.05's on the same command lines.
 */
class TestSallocCommand {
    @RegisterExtension
    final CommandFixture cli = CommandFixture.onAFakeCluster().withEnv("PATH", "/usr/bin:/bin");

    private Output salloc(String... args) {
        return cli.run(new SallocCommand(), args);
    }

    private JobSpec submitted() {
        return cli.cluster().submitted().orElseThrow();
    }

    @Test
    void allocationOptionsFillTheJobSpecAndTheCommandRunsInTheChosenDirectory() throws IOException {
        Files.createDirectory(cli.dir().resolve("sub"));
        cli.env().put("SALLOC_PARTITION", "gpu");
        Output o = salloc(
                "-A",
                "acct",
                "-q",
                "qos",
                "--comment=c",
                "-x",
                "n2",
                "-C",
                "feat",
                "--mem-per-cpu=10",
                "-t",
                "5",
                "--mail-type=END",
                "--gpus-per-node=1",
                "--nice=5",
                "-N1",
                "-n2",
                "-c2",
                "-J",
                "nm",
                "-D",
                "sub",
                "/bin/sh",
                "-c",
                "pwd > where; echo $SLURM_JOB_ID >> where; exit 3");
        assertThat(o)
                .isEqualTo(new Output(
                        3, "", "salloc: Granted job allocation 42\nsalloc: Relinquishing job allocation 42\n"));
        JobSpec s = submitted();
        assertThat(s.getAccount()).isEqualTo("acct");
        assertThat(s.getQos()).isEqualTo("qos");
        assertThat(s.getPartition()).isEqualTo("gpu");
        assertThat(s.getComment()).isEqualTo("c");
        assertThat(s.getExcludeNodes()).isEqualTo("n2");
        assertThat(s.getConstraint()).isEqualTo("feat");
        assertThat(s.getMemPerCpuMb()).isEqualTo(10);
        assertThat(s.getTimeLimitMinutes()).isEqualTo(5);
        assertThat(s.getMailType()).isEqualTo("END");
        assertThat(s.getGpusPerNode()).isEqualTo("1");
        assertThat(s.getNice()).isEqualTo(5);
        assertThat(s.getNumTasks()).isEqualTo(2);
        assertThat(s.getCpusPerTask()).isEqualTo(2);
        assertThat(s.getName()).isEqualTo("nm");
        assertThat(s.getWorkDir()).isEqualTo(cli.dir().resolve("sub").toString());
        assertThat(Files.readString(cli.dir().resolve("sub/where")))
                .isEqualTo(cli.dir().resolve("sub") + "\n42\n");
        assertThat(cli.cluster().released()).contains(3 << 8);
    }

    @Test
    void aCommandThatCannotBeStartedIsSallocsForkError() {
        // Recorded from Slurm 22.05 (compat 025): the allocation is granted, then released.
        assertThat(salloc("-n1", "/no/such/program"))
                .isEqualTo(new Output(
                        1,
                        "",
                        "salloc: Granted job allocation 42\n"
                                + "salloc: error: _fork_command: Unable to find command \"/no/such/program\"\n"
                                + "salloc: Relinquishing job allocation 42\n"));
        assertThat(cli.cluster().released()).isPresent();
    }

    @Test
    void noShellKeepsTheAllocationAndRunsNothing() {
        // Real salloc 22.05: the job is named no-shell and stays after salloc exits 0.
        assertThat(salloc("--no-shell", "-N1")).isEqualTo(new Output(0, "", "salloc: Granted job allocation 42\n"));
        assertThat(submitted().getName()).isEqualTo("no-shell");
        assertThat(cli.cluster().released()).isEmpty();
    }

    @Test
    void immediateGivesUpAsSlurmsDoes() {
        cli.cluster().pending();
        assertThat(salloc("-I", "-N1", "/bin/true"))
                .isEqualTo(new Output(
                        1,
                        "",
                        "salloc: Job allocation 42 has been revoked.\n"
                                + "salloc: error: Unable to allocate resources: Requested nodes are busy\n"));
        assertThat(salloc("-I1", "-N1", "/bin/true")).isEqualTo(new Output(1, "", """
                        salloc: Pending job allocation 42
                        salloc: job 42 queued and waiting for resources
                        salloc: error: Unable to allocate resources: Connection timed out
                        salloc: Job allocation 42 has been revoked.
                        """));
        assertThat(cli.cluster().released()).isPresent();
    }

    @Test
    void aReservationTravelsToTheController() {
        salloc("--reservation=foo", "/bin/true");
        assertThat(submitted().getReservation()).isEqualTo("foo");
    }

    @Test
    void sallocsOwnOptionsAreTakenAndListedByMinusV() {
        Output o = salloc("-v", "--bell", "-K", "--get-user-env", "--wait-all-nodes=1", "-N1", "/bin/true");
        // Real salloc 22.05 -v on the same options (it names --bell's slot bell-never after a later --no-bell).
        assertThat(o.err()).startsWith("""
                        salloc: defined options
                        salloc: -------------------- --------------------
                        salloc: bell                : bell-always
                        salloc: get-user-env        : 0
                        salloc: kill-command        : TERM
                        salloc: nodes               : 1
                        salloc: verbose             : 1
                        salloc: wait-all-nodes      : 1
                        salloc: -------------------- --------------------
                        salloc: end of defined options
                        salloc: Granted job allocation 42
                        """);
        assertThat(o.exitCode()).isZero();
        assertThat(salloc("--wait-all-nodes=2", "/bin/true"))
                .isEqualTo(new Output(255, "", "salloc: error: Invalid --wait-all-nodes specification\n"));
        assertThat(salloc("--wait-all-nodes=x", "/bin/true"))
                .isEqualTo(new Output(1, "", "salloc: error: Invalid numeric value \"x\" for --wait-all-nodes.\n"));
        assertThat(salloc("-Kbogus", "/bin/true"))
                .isEqualTo(new Output(255, "", "salloc: error: Invalid --kill-command specification\n"));
    }

    @Test
    void badValuesAreTheSharedModelsRefusals() {
        assertThat(salloc("-t", "bogus", "/bin/true"))
                .isEqualTo(new Output(255, "", "salloc: error: Invalid --time specification\n"));
        assertThat(salloc("-n", "x", "/bin/true"))
                .isEqualTo(new Output(1, "", "salloc: error: Invalid numeric value \"x\" for --ntasks.\n"));
        assertThat(salloc("--mem=1", "--mem-per-cpu=1", "/bin/true"))
                .isEqualTo(new Output(
                        1, "", "salloc: fatal: --mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive.\n"));
        assertThat(salloc("-Q", "-v", "/bin/true"))
                .isEqualTo(new Output(1, "", "salloc: error: don't specify both --verbose (-v) and --quiet (-Q)\n"));
        assertThat(cli.cluster().requests()).isEmpty();
    }

    /**
     * Recorded from Slurm 22.05 (compat 264): PrologFlags=Alloc, the Prolog fails on n2; the
     * controller cancels the allocation and salloc says why, exits 1 and relinquishes nothing.
     * The controller may cancel it before salloc's first look sees it run ({@code runningPolls}
     * 0): salloc 22.05 was granted it all the same, and says the same lines.
     */
    @ParameterizedTest(name = "running for {0} looks")
    @ValueSource(ints = {1, 0})
    void anAllocationWhosePrologFailsIsGrantedThenRevokedAndItsCommandDoesNotRun(int runningPolls) {
        cli.cluster().prologFailsOn("n2", runningPolls);
        assertThat(salloc("-N1", "/bin/sh", "-c", "echo ran command"))
                .isEqualTo(new Output(
                        1,
                        "",
                        "salloc: Granted job allocation 42\n"
                                + "salloc: Waiting for resource configuration\n"
                                + "salloc: Prolog failure on node n2\n"
                                + "salloc: Job allocation 42 has been revoked.\n"
                                + "salloc: error: Job allocation 42 has been revoked\n"));
        assertThat(cli.cluster().released()).isEmpty();
    }
}
