package dev.sluice.cli.command.scancel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.getopt.OptionSpec;
import dev.sluice.cli.testing.Answers;
import dev.sluice.cli.testing.CommandFixture;
import dev.sluice.cli.testing.Fixtures;
import dev.sluice.cli.testing.TestingInvocations.Output;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.SignalJobRequest;
import dev.sluice.protocol.v1.SignalJobResponse;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * scancel's command line against real scancel 22.05's: the same long options in the same table
 * order (read off the real command: every {@code --x} prefix and its ambiguity list), each
 * option taken and turned into the request it stands for; messages as 22.05 printed them.
 */
class TestScancelOptions {
    /** Real scancel 22.05's long options, in its getopt table's order. */
    static final String SLURM_SCANCEL = """
            account batch ctld full help hurry interactive cluster clusters jobname me name nodelist
            partition qos quiet reservation sibling signal state usage user verbose version wckey
            """;

    @RegisterExtension
    final CommandFixture cli = new CommandFixture(req -> switch (req.getBodyCase()) {
        case GET_JOBS -> Answers.jobs(Fixtures.jobs());
        case SIGNAL_JOB -> {
            SignalJobResponse.Builder r = SignalJobResponse.newBuilder();
            SignalJobRequest s = req.getSignalJob();
            // A filter-only request selects jobs 1 and 3 here.
            List<String> ids = s.getJobIdsCount() > 0 ? s.getJobIdsList() : List.of("1", "3");
            ids.forEach(id -> r.addResults(SignalJobResponse.Result.newBuilder().setJobId(id)));
            yield ClientResponse.newBuilder().setSignalJob(r).build();
        }
        default -> throw new AssertionError("unexpected " + req.getBodyCase());
    });

    private Output scancel(String stdin, String... args) {
        return cli.runWithInput(new ScancelCommand(), stdin, args);
    }

    private List<SignalJobRequest> signals() {
        return cli.controller().requests().stream()
                .filter(ClientRequest::hasSignalJob)
                .map(ClientRequest::getSignalJob)
                .toList();
    }

    @Test
    void everyLongOptionOfSlurmsScancelInSlurmsOrder() {
        assertThat(ScancelOptions.TABLE.specs().stream()
                        .map(OptionSpec::longName)
                        .toList())
                .containsExactlyElementsOf(Arrays.asList(SLURM_SCANCEL.strip().split("\\s+")));
        assertThat(ScancelOptions.TABLE.specs()).allMatch(OptionSpec::supported);
    }

    @Test
    void prefixesAreAsAmbiguousAsInSlurm() {
        // Real scancel 22.05 on the same words.
        assertThat(scancel("", "--s=1").err())
                .startsWith("scancel: option '--s=1' is ambiguous; possibilities: '--sibling' '--signal' '--state'\n");
        assertThat(scancel("", "--c", "1").err())
                .startsWith("scancel: option '--c' is ambiguous; possibilities: '--ctld' '--cluster' '--clusters'\n");
        assertThat(scancel("", "--q=x").err())
                .startsWith("scancel: option '--q=x' is ambiguous; possibilities: '--qos' '--quiet'\n");
        assertThat(scancel("", "--bogus"))
                .isEqualTo(new Output(
                        1,
                        "",
                        "scancel: unrecognized option '--bogus'\nTry \"scancel --help\" for more information\n"));
    }

    @Test
    void helpAndUsageAreSlurmsTwoTexts() {
        Output help = scancel("", "--help");
        assertThat(help.exitCode()).isZero();
        assertThat(help.out())
                .startsWith("Usage: scancel [OPTIONS] [job_id[_array_id][.step_id]]\n")
                .contains("      --sibling=cluster_name      remove an active sibling job from a federated job\n")
                .endsWith("  --usage                         display brief usage message\n");
        assertThat(scancel("", "--usage").out())
                .startsWith("Usage: scancel [-A account] [--batch] [--full] [--interactive] [-n job_name]\n")
                .endsWith("               [job_id[_array_id][.step_id]]\n");
    }

    @Test
    void everyFilterReachesTheController() {
        Output o = scancel(
                "",
                "-A",
                "ProjA",
                "-q",
                "High",
                "-R",
                "resv",
                "--wckey=wk",
                "--jobname=j",
                "-p",
                "gpu",
                "-w",
                "n1",
                "-t",
                "pd",
                "-u",
                "alice",
                "--ctld",
                "-H",
                "-f");
        assertThat(o.exitCode()).isZero();
        SignalJobRequest s = signals().get(0);
        // Account and QOS are lowercased, as Slurm does.
        assertThat(s.getAccountFilter()).isEqualTo("proja");
        assertThat(s.getQosFilter()).isEqualTo("high");
        assertThat(s.getReservationFilter()).isEqualTo("resv");
        assertThat(s.getWckeyFilter()).isEqualTo("wk");
        assertThat(s.getNameFilter()).isEqualTo("j");
        assertThat(s.getPartitionFilter()).isEqualTo("gpu");
        assertThat(s.getNodesFilter()).isEqualTo("n1");
        assertThat(s.getStateFilter()).isEqualTo("PENDING");
        assertThat(s.getUserFilter()).isEqualTo("alice");
        assertThat(s.getFull()).isTrue();
        assertThat(s.getCancel()).isTrue();
    }

    @Test
    void meIsTheCallersUid() {
        assertThat(scancel("", "--me", "-b", "-s", "USR1").exitCode()).isZero();
        SignalJobRequest s = signals().get(0);
        assertThat(s.getUserFilter()).isEqualTo("root");
        assertThat(s.getBatchOnly()).isTrue();
        assertThat(s.getSignal()).isEqualTo(10);
    }

    @Test
    void aStateIsOneOfSlurmsNamesNotAList() {
        // Real 22.05: -t takes any job state; a list is refused.
        assertThat(scancel("", "-t", "CD", "-u", "root").exitCode()).isZero();
        assertThat(signals().get(0).getStateFilter()).isEqualTo("COMPLETED");
        assertThat(scancel("", "-t", "PD,R", "1"))
                .isEqualTo(new Output(
                        1,
                        "",
                        "Invalid job state specified: PD,R\nValid job states are PENDING, RUNNING, and SUSPENDED\n"));
    }

    @Test
    void verboseSummaryListsTheFiltersInSlurmsOrder() {
        cli.controller()
                .handler(req -> ClientResponse.newBuilder()
                        .setSignalJob(SignalJobResponse.getDefaultInstance())
                        .build());
        // The line real scancel 22.05 printed for the same options.
        assertThat(scancel(
                                "", "-v", "-n", "x", "-p", "y", "-u", "root", "-w", "n1", "-A", "a", "-q", "q", "-R",
                                "r", "--wckey", "w", "-t", "PD")
                        .err())
                .isEqualTo("scancel: error: No active jobs match ALL job filters, including: account=a"
                        + " job_name=x nodelist=n1 partition=y qos=q reservation=r state=PENDING user_name=root"
                        + " wckey=w \n");
        // A named job the filters leave out (the controller drops it): 22.05's same line,
        // and no "Terminating job".
        assertThat(scancel("", "-v", "-p", "nosuch", "203"))
                .isEqualTo(new Output(
                        0, "", "scancel: error: No active jobs match ALL job filters, including: partition=nosuch \n"));
    }

    @Test
    void clustersOtherThanThisOneAreRefusedAsSlurmDoes() {
        assertThat(scancel("", "-M", "foo,bar", "1"))
                .isEqualTo(new Output(
                        1,
                        "",
                        "scancel: error: No cluster 'foo' known by database.\n"
                                + "scancel: error: No cluster 'bar' known by database.\n"
                                + "scancel: error: 'foo,bar' can't be reached now, or it is an invalid entry for"
                                + " --cluster.  Use 'sacctmgr list clusters' to see available clusters.\n"));
        // One known name is enough: the request goes to this cluster.
        Output o = scancel("", "--clusters=test,foo", "1");
        assertThat(o).isEqualTo(new Output(0, "", "scancel: error: No cluster 'foo' known by database.\n"));
        assertThat(signals()).hasSize(1);
    }

    @Test
    void siblingNamesAnActiveJobThatIsNotFederated() {
        // 22.05 on a cluster without federation: "Not a valid federated job", exit 191; the
        // job is left alone, and an unknown id is silent.
        assertThat(scancel("", "--sibling=other", "1", "77"))
                .isEqualTo(
                        new Output(191, "", "scancel: error: Kill job error on job id 1: Not a valid federated job\n"));
        assertThat(signals()).isEmpty();
    }

    @Test
    void interactiveAsksAboutEachJobAndCancelsOnlyTheAgreedOnes() {
        Output o = scancel("y\nn\n", "-i", "-u", "root");
        assertThat(o.out())
                .isEqualTo("Cancel job_id=1 name=wrap partition=gpu [y/n]? "
                        + "Cancel job_id=3 name=bigone partition=gpu [y/n]? ");
        assertThat(o.exitCode()).isZero();
        List<SignalJobRequest> sent = signals();
        assertThat(sent.get(0).getListOnly()).isTrue();
        assertThat(sent.get(1).getJobIdsList()).containsExactly("1");
        assertThat(sent.get(1).getCancel()).isTrue();
    }

    @Test
    void interactiveWithNoAnswerCancelsNothing() {
        assertThat(scancel("n\n", "--interactive", "1"))
                .isEqualTo(new Output(0, "Cancel job_id=1 name=wrap partition=gpu [y/n]? ", ""));
        assertThat(signals()).isEmpty();
    }
}
