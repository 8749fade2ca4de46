package dev.sluice.cli.command.squeue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.getopt.OptionSpec;
import dev.sluice.cli.testing.Answers;
import dev.sluice.cli.testing.CommandFixture;
import dev.sluice.cli.testing.Fixtures;
import dev.sluice.cli.testing.TestingInvocations.Output;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.GetJobsResponse;
import dev.sluice.protocol.v1.JobState;
import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * squeue's command line against real squeue 22.05's: the same long options in the same table
 * order (read off the real command: every {@code --x} prefix and its ambiguity list, aliases
 * such as {@code --sib} and {@code --nodes} included), each option taken and honoured;
 * messages and exit statuses as 22.05 printed them.
 */
class TestSqueueOptions {
    /** Real squeue 22.05's long options, in its getopt table's order. */
    static final String SLURM_SQUEUE = """
            accounts all array array-unique Format format federation help hide iterate jobs json local long
            licenses cluster clusters me name noconvert node nodes nodelist noheader partitions priority qos
            reservation sib sibling sort start steps states usage user users verbose version yaml
            """;

    @RegisterExtension
    final CommandFixture cli = new CommandFixture(req -> Answers.jobs(Fixtures.jobs()));

    private Output squeue(String... args) {
        return cli.run(new SqueueCommand(), args);
    }

    @Test
    void everyLongOptionOfSlurmsSqueueInSlurmsOrder() {
        assertThat(SqueueOptions.TABLE.specs().stream()
                        .map(OptionSpec::longName)
                        .filter(Objects::nonNull)
                        .toList())
                .containsExactlyElementsOf(Arrays.asList(SLURM_SQUEUE.strip().split("\\s+")));
        assertThat(SqueueOptions.TABLE.specs()).allMatch(OptionSpec::supported);
    }

    @Test
    void prefixesAreAsAmbiguousAsInSlurm() {
        // Real squeue 22.05's first lines for the same words.
        assertThat(squeue("--s").err())
                .startsWith("squeue: option '--s' is ambiguous; possibilities: '--sib' '--sort' '--start' '--steps'"
                        + " '--states'\n");
        assertThat(squeue("--no").err())
                .startsWith("squeue: option '--no' is ambiguous; possibilities: '--noconvert' '--node' '--nodes'"
                        + " '--nodelist' '--noheader'\n");
        assertThat(squeue("--a").err())
                .startsWith("squeue: option '--a' is ambiguous; possibilities: '--accounts' '--all' '--array'"
                        + " '--array-unique'\n");
        assertThat(squeue("--u").err())
                .startsWith("squeue: option '--u' is ambiguous; possibilities: '--usage' '--user' '--users'\n");
        assertThat(squeue("--l").err())
                .startsWith("squeue: option '--l' is ambiguous; possibilities: '--local' '--long' '--licenses'\n");
        assertThat(squeue("--c").err()).startsWith("squeue: option '--cluster' requires an argument\n");
        assertThat(squeue("-x"))
                .isEqualTo(new Output(
                        1, "", "squeue: invalid option -- 'x'\nTry \"squeue --help\" for more information\n"));
    }

    @Test
    void conflictingLayoutsAreRefusedAsSlurmDoes() {
        assertThat(squeue("-o", "%i", "-l"))
                .isEqualTo(new Output(
                        1,
                        "",
                        "squeue: fatal: Options -o(--format) and -l(--long) are mutually exclusive. Please remove"
                                + " one and retry.\n"));
        assertThat(squeue("-o", "%i", "-O", "jobid"))
                .isEqualTo(new Output(1, "", "squeue: error: -O (--Format) is incompatible with -o (--format)\n"));
        assertThat(squeue("-j", "-s"))
                .isEqualTo(new Output(1, "", "squeue: error: Incompatible options --jobs and --steps\n"));
        Output extra = squeue("1", "2");
        assertThat(extra.exitCode()).isEqualTo(1);
        assertThat(extra.err()).isEqualTo("squeue: error: Unrecognized option: 1\n");
        assertThat(extra.out()).isEqualTo(SqueueOptions.USAGE);
    }

    @Test
    void aBareJobsOptionTakesTheNextWord() {
        assertThat(squeue("-h", "-o", "%i", "-j", "3")).isEqualTo(new Output(0, "3\n", ""));
        assertThat(squeue("-h", "-o", "%i", "-S", "i", "--jobs=4,1")).isEqualTo(new Output(0, "1\n4\n", ""));
        // -j alone: every job.
        assertThat(squeue("-h", "-o", "%i", "-S", "i", "-j").out()).isEqualTo("1\n2\n3\n4\n5\n");
    }

    @Test
    void filtersThatNoJobHereMatches() {
        // No job here asks for a license or is in a reservation.
        assertThat(squeue("-o", "%i", "-L", "matlab")).isEqualTo(new Output(0, "JOBID\n", ""));
        assertThat(squeue("-o", "%i", "--reservation=maint")).isEqualTo(new Output(0, "JOBID\n", ""));
    }

    /** As Slurm 22.05's squeue (compat scenario 173): by license name, any of those given. */
    @Test
    void licensesSelectTheJobsAskingForOneOfThemByName() throws IOException {
        cli.controller()
                .handler(req -> ClientResponse.newBuilder()
                        .setGetJobs(GetJobsResponse.newBuilder()
                                .addJobs(Fixtures.job(1, Fixtures.wrapSpec().setLicenses("foo:3"), JobState.RUNNING))
                                .addJobs(
                                        Fixtures.job(2, Fixtures.wrapSpec().setLicenses("foo:2,bar"), JobState.PENDING))
                                .addJobs(Fixtures.job(3, Fixtures.wrapSpec(), JobState.PENDING)))
                        .build());
        assertThat(squeue("-h", "-o", "%i %W", "-L", "bar").out()).isEqualTo("2 foo:2,bar\n");
        assertThat(squeue("-h", "-o", "%i", "--licenses=foo,baz").out()).isEqualTo("2\n1\n");
        assertThat(squeue("-h", "-o", "%i", "-L", "fo").out()).isEmpty();
        assertThat(squeue("-h", "-o", "%i", "-L", "foo:2").out()).isEmpty();
    }

    @Test
    void accountAliasesAndMeSelect() {
        assertThat(squeue("-h", "-o", "%i", "-U", "nobody").out()).isEmpty();
        assertThat(squeue("-h", "-o", "%i", "--account=nobody").out()).isEmpty();
        assertThat(squeue("-h", "-o", "%i", "--me", "--users=root", "-t", "PD").out())
                .isEqualTo("3\n4\n5\n");
        assertThat(squeue("-h", "-o", "%i", "--me", "-t", "r").out()).isEqualTo("1\n2\n");
    }

    @Test
    void recordedOptionsChangeNothingOnOneCluster() {
        String plain = squeue().out();
        for (String o :
                new String[] {"-a", "--hide", "-P", "--noconvert", "--local", "--federation", "--sib", "--sibling", "-v"
                }) {
            assertThat(squeue(o)).as(o).isEqualTo(new Output(0, plain, ""));
        }
    }

    @Test
    void clustersNameThisClusterOrAreRefused() {
        assertThat(squeue("-M", "test", "-o", "%i", "-t", "R"))
                .isEqualTo(new Output(0, "CLUSTER: test\nJOBID\n1\n2\n", ""));
        assertThat(squeue("--clusters=all", "-h", "-o", "%i", "-t", "R")).isEqualTo(new Output(0, "1\n2\n", ""));
        // The step listing too (observed: CLUSTER above STEPID).
        assertThat(squeue("-M", "test", "-s").out()).startsWith("CLUSTER: test\n         STEPID ");
        assertThat(squeue("-M", "foo"))
                .isEqualTo(new Output(
                        1,
                        "",
                        "squeue: error: No cluster 'foo' known by database.\n"
                                + "squeue: error: 'foo' can't be reached now, or it is an invalid entry for --cluster."
                                + "  Use 'sacctmgr list clusters' to see available clusters.\n"));
    }

    @Test
    void yamlIsTheJsonDocumentInSlurmsYamlForm() {
        Output yaml = squeue("--yaml");
        assertThat(yaml.exitCode()).isZero();
        assertThat(yaml.out())
                .startsWith("%YAML 1.1\n--- !!map\n!!str meta: !!map\n")
                .contains("\n!!str jobs: !!seq\n- !!map\n  !!str account:")
                .endsWith("...\n");
    }

    @Test
    void helpAndUsageAreSlurmsTexts() {
        assertThat(squeue("--help").out())
                .startsWith(
                        "Usage: squeue [OPTIONS]\n  -A, --account=account(s)        comma separated list of accounts\n"
                                + "\t\t\t\t  to view, default is all accounts\n");
        assertThat(squeue("--usage").out()).endsWith("\t      [-ahjlrsv]\n");
    }

    @Test
    void formatVariablesGiveWayToLayoutOptions() {
        cli.env().put("SQUEUE_FORMAT", "%j");
        assertThat(squeue("-h", "-t", "R").out()).isEqualTo("wrap\ngpujob\n");
        // Slurm: -l (or -o, -O, -s, --start) keeps SQUEUE_FORMAT out.
        assertThat(squeue("-h", "-t", "R", "-l").out()).doesNotStartWith("wrap");
    }
}
