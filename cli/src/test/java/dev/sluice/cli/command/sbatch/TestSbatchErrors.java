package dev.sluice.cli.command.sbatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.testing.CommandFixture;
import dev.sluice.cli.testing.TestingInvocations.Output;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.SlurmError;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * sbatch's refusals and warnings end to end through the command socket: bad options, scripts
 * and files are refused before the controller is asked, and the controller's refusal or absence
 * is printed, each with Slurm 22.05's sbatch's text and exit status on the same command line.
 */
class TestSbatchErrors {
    @RegisterExtension
    final CommandFixture cli = CommandFixture.acceptingBatchJobs(42).withEnv("PATH", "/usr/bin:/bin");

    private Output sbatch(String stdin, String... args) {
        return cli.runWithInput(new SbatchCommand(), stdin, args);
    }

    @Test
    void anAmbiguousPrefixListsSlurmsOptionsInSbatchsTableOrder() {
        // Real sbatch 22.05, same line; --cluster is Slurm's alias of --clusters.
        Output o = sbatch("", "--c=1", "--wrap", "true");
        assertThat(o.err())
                .isEqualTo("sbatch: option '--c=1' is ambiguous; possibilities: '--cluster-constraint' '--chdir'"
                        + " '--cluster' '--clusters' '--comment' '--container' '--context' '--contiguous'"
                        + " '--constraint' '--core-spec' '--cores-per-socket' '--cpu-freq' '--cpus-per-gpu'"
                        + " '--cpus-per-task'\nTry \"sbatch --help\" for more information\n");
        assertThat(o.exitCode()).isEqualTo(255);
        assertThat(sbatch("", "--tasks-per-node=2", "--wrap", "true").exitCode())
                .isZero();
        assertThat(cli.submitted().getNtasksPerNode()).isEqualTo(2);
    }

    @Test
    void aGresTheConfigurationDoesNotNameIsRefusedBeforeTheControllerIsAsked() {
        // Real Slurm 22.05: one line, no "Batch job submission failed:", exit 1.
        Output o = sbatch("", "--gres=bogus:1", "--wrap", "true");
        assertThat(o.err()).isEqualTo("sbatch: error: Invalid generic resource (gres) specification\n");
        assertThat(o.exitCode()).isEqualTo(1);
        assertThat(cli.controller().requests()).isEmpty();
    }

    @Test
    void beginAndDependencyErrorsAsSlurm() {
        assertThat(sbatch("", "--begin=garbage", "--wrap", "true"))
                .isEqualTo(new Output(255, "", "sbatch: error: Invalid --begin specification\n"));
        // Real sbatch 22.05 (compat 303): a deadline before the begin time, exit 1; after it, taken.
        assertThat(sbatch("", "--begin=now+2hours", "--deadline=now+1hour", "--wrap", "true"))
                .isEqualTo(new Output(1, "", "sbatch: error: Incompatible begin and deadline time specification\n"));
        assertThat(sbatch("", "--kill-on-invalid-dep=maybe", "--wrap", "true"))
                .isEqualTo(new Output(255, "", "sbatch: error: Invalid --kill-on-invalid-dep specification\n"));
        assertThat(cli.controller().requests()).isEmpty();
    }

    @Test
    void gpuOptionErrorsAsSlurm() {
        assertThat(sbatch("", "--cpus-per-gpu=0", "--wrap", "true"))
                .isEqualTo(new Output(1, "", "sbatch: error: Invalid numeric value \"0\" for --cpus-per-gpu.\n"));
        assertThat(sbatch("", "--mem-per-gpu=x", "--wrap", "true"))
                .isEqualTo(new Output(255, "", "sbatch: error: Invalid --mem-per-gpu specification\n"));
        assertThat(sbatch("", "--gres-flags=bogus", "--wrap", "true"))
                .isEqualTo(new Output(255, "", "sbatch: error: Invalid --gres-flags specification\n"));
        assertThat(sbatch("", "--mem=1G", "--mem-per-gpu=1G", "--wrap", "true"))
                .isEqualTo(new Output(
                        1, "", "sbatch: fatal: --mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive.\n"));
        assertThat(cli.controller().requests()).isEmpty();
    }

    @Test
    void commandLineErrorsAsSlurm() {
        Output unknown = sbatch("", "--foo");
        assertThat(unknown.err())
                .isEqualTo("sbatch: unrecognized option '--foo'\nTry \"sbatch --help\" for more information\n");
        assertThat(unknown.exitCode()).isEqualTo(255);

        // srun's options and those Slurm 22.05 dropped are not sbatch's (real sbatch, same lines).
        Output notSbatchs = sbatch("", "--mpi=none", "--wrap", "true");
        assertThat(notSbatchs.err()).startsWith("sbatch: unrecognized option '--mpi=none'\n");
        assertThat(notSbatchs.exitCode()).isEqualTo(255);
        assertThat(sbatch("", "--checkpoint=5", "--wrap", "true").err())
                .startsWith("sbatch: unrecognized option '--checkpoint=5'\n");
        assertThat(sbatch("", "-W5", "--wrap", "true").err()).startsWith("sbatch: invalid option -- '5'\n");

        // Slurm 22.05: `sbatch --signal=FOO --wrap true` (and B:USR1@abc, X:USR1, @70000).
        assertThat(sbatch("", "--signal=FOO", "--wrap", "true"))
                .isEqualTo(new Output(255, "", "sbatch: error: Invalid --signal specification\n"));

        assertThat(sbatch("", "-N", "abc", "--wrap", "true"))
                .isEqualTo(new Output(255, "", "sbatch: error: \"abc\" is not a valid node count\n"));
        assertThat(sbatch("", "-N", "3-2", "--wrap", "true"))
                .isEqualTo(
                        new Output(255, "", "sbatch: error: Maximum node count 2 is less than minimum node count 3\n"));
        assertThat(sbatch("", "-t", "abc", "--wrap", "true"))
                .isEqualTo(new Output(255, "", "sbatch: error: Invalid --time specification\n"));
        assertThat(sbatch("", "--mem=abc", "--wrap", "true"))
                .isEqualTo(new Output(255, "", "sbatch: error: Invalid --mem specification\n"));
        assertThat(sbatch("", "-n", "0", "--wrap", "true"))
                .isEqualTo(new Output(1, "", "sbatch: error: Invalid numeric value \"0\" for --ntasks.\n"));
        assertThat(sbatch("", "--mem=1G", "--mem-per-cpu=1G", "--wrap", "true"))
                .isEqualTo(new Output(
                        1, "", "sbatch: fatal: --mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive.\n"));
        assertThat(sbatch("", "--open-mode=foo", "--wrap", "true"))
                .isEqualTo(new Output(255, "", "sbatch: error: Invalid --open-mode specification\n"));
        assertThat(sbatch("", "--wrap", "true", "extra"))
                .isEqualTo(new Output(1, "", "sbatch: error: Script arguments not permitted with --wrap option\n"));
        assertThat(cli.controller().requests()).isEmpty();
    }

    @Test
    void scriptErrorsAsSlurm() throws IOException {
        assertThat(sbatch("")).isEqualTo(new Output(1, "", "sbatch: error: Batch script is empty!\n"));
        assertThat(sbatch("   \n\n"))
                .isEqualTo(new Output(1, "", "sbatch: error: Batch script contains only whitespace!\n"));
        assertThat(sbatch("echo hi\n"))
                .isEqualTo(new Output(
                        1,
                        "",
                        "sbatch: error: This does not look like a batch script.  The first\n"
                                + "sbatch: error: line must start with #! followed by the path to an interpreter.\n"
                                + "sbatch: error: For instance: #!/bin/sh\n"));
        assertThat(sbatch("#!/bin/sh\r\necho hi\r\n"))
                .isEqualTo(new Output(
                        1,
                        "",
                        "sbatch: error: Batch script contains DOS line breaks (\\r\\n)\n"
                                + "sbatch: error: instead of expected UNIX line breaks (\\n).\n"));
        assertThat(sbatch("", "/nonexist"))
                .isEqualTo(new Output(1, "", "sbatch: error: Unable to open file /nonexist\n"));
        assertThat(sbatch("#!/bin/sh\n#SBATCH --bogus\n").exitCode()).isEqualTo(255);
        assertThat(sbatch("#!/bin/sh\n#SBATCH -J a b\n"))
                .isEqualTo(new Output(1, "", "sbatch: error: Invalid directive found in batch script: b\n"));
        assertThat(cli.controller().requests()).isEmpty();
    }

    @Test
    void moreNodesThanTasksIsCorrectedWithSlurmsWarning() {
        Output o = sbatch("", "-N2", "-n1", "--wrap", "true");
        assertThat(o.err()).isEqualTo("sbatch: Warning: can't run 1 processes on 2 nodes, setting nnodes to 1\n");
        assertThat(cli.submitted().getMinNodes()).isEqualTo(1);
    }

    @Test
    void refusedSubmissionPrintsSlurmsText() {
        cli.controller()
                .handler(req -> ClientResponse.newBuilder()
                        .setError(SlurmError.newBuilder()
                                .setCode(ErrorCode.INVALID_PARTITION_NAME.number())
                                .setMessage(ErrorCode.INVALID_PARTITION_NAME.text()))
                        .build());
        assertThat(sbatch("", "-p", "nope", "--wrap", "true"))
                .isEqualTo(new Output(
                        1, "", "sbatch: error: Batch job submission failed: Invalid partition name specified\n"));
    }

    @Test
    void unreachableControllerPrintsSlurmsText() throws IOException {
        cli.controller().close();
        assertThat(sbatch("", "--wrap", "true"))
                .isEqualTo(
                        new Output(
                                1,
                                "",
                                "sbatch: error: Batch job submission failed: Unable to contact slurm controller (connect failure)\n"));
    }

    @Test
    void anExportFileThatCannotBeOpenedStopsTheSubmission() {
        Output o = sbatch("", "--export-file=" + cli.dir().resolve("absent"), "--wrap", "true");
        assertThat(o.err())
                .isEqualTo("sbatch: error: Could not open user environment file "
                        + cli.dir().resolve("absent") + "\n");
        assertThat(o.exitCode()).isEqualTo(1);
        assertThat(cli.controller().requests()).isEmpty();
    }
}
