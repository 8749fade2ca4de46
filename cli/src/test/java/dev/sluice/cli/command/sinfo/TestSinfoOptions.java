package dev.sluice.cli.command.sinfo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.getopt.OptionSpec;
import dev.sluice.cli.testing.Answers;
import dev.sluice.cli.testing.CommandFixture;
import dev.sluice.cli.testing.Fixtures;
import dev.sluice.cli.testing.TestingInvocations.Output;
import dev.sluice.protocol.v1.ClientResponse;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * sinfo's command line against real sinfo 22.05's: the same long options in the same table
 * order (read off the real command: every {@code --x} prefix and its ambiguity list), each
 * option taken; -M, -T and --yaml as 22.05 answers them on a one-cluster system.
 */
class TestSinfoOptions {
    /** Real sinfo 22.05's long options, in its getopt table's order. */
    static final String SLURM_SINFO = """
            all dead exact federation help hide iterate local long cluster clusters nodes noconvert noheader
            Node format Format partition responding list-reasons summarize sort states reservation usage
            verbose version json yaml
            """;

    private boolean reservations;

    @RegisterExtension
    final CommandFixture cli = new CommandFixture(req -> switch (req.getBodyCase()) {
        case GET_NODES -> Answers.nodes(Fixtures.nodes());
        case GET_PARTITIONS -> Answers.gpuPartition();
        case GET_RESERVATIONS -> {
            var answer =
                    dev.sluice.protocol.v1.GetReservationsResponse.newBuilder().setNow(1_700_000_000);
            if (reservations) {
                answer.addReservations(dev.sluice.protocol.v1.ReservationInfo.newBuilder()
                        .setName("maintenance_window")
                        .setStartTime(1_700_000_000)
                        .setEndTime(1_700_000_000 + 90_000)
                        .addNodes("n1")
                        .addNodes("n2"));
            }
            yield ClientResponse.newBuilder().setGetReservations(answer).build();
        }
        default -> throw new AssertionError("unexpected " + req.getBodyCase());
    });

    private Output sinfo(String... args) {
        return cli.run(new SinfoCommand(), args);
    }

    @Test
    void everyLongOptionOfSlurmsSinfoInSlurmsOrder() {
        assertThat(SinfoOptions.TABLE.specs().stream().map(OptionSpec::longName).toList())
                .containsExactlyElementsOf(Arrays.asList(SLURM_SINFO.strip().split("\\s+")));
        assertThat(SinfoOptions.TABLE.specs()).allMatch(OptionSpec::supported);
    }

    @Test
    void prefixesAreAsAmbiguousAsInSlurm() {
        // Real sinfo 22.05's first lines for the same words.
        assertThat(sinfo("--f").err())
                .startsWith("sinfo: option '--f' is ambiguous; possibilities: '--federation' '--format'\n");
        assertThat(sinfo("--l").err())
                .startsWith("sinfo: option '--l' is ambiguous; possibilities: '--local' '--long' '--list-reasons'\n");
        assertThat(sinfo("--no").err())
                .startsWith("sinfo: option '--no' is ambiguous; possibilities: '--nodes' '--noconvert' '--noheader'\n");
        assertThat(sinfo("--r").err())
                .startsWith("sinfo: option '--r' is ambiguous; possibilities: '--responding' '--reservation'\n");
        assertThat(sinfo("--s").err())
                .startsWith("sinfo: option '--s' is ambiguous; possibilities: '--summarize' '--sort' '--states'\n");
    }

    @Test
    void recordedOptionsChangeNothingOnOneCluster() {
        String plain = sinfo().out();
        for (String o : new String[] {"-e", "--exact", "--noconvert", "--local", "--federation", "-v"}) {
            assertThat(sinfo(o)).as(o).isEqualTo(new Output(0, plain, ""));
        }
    }

    @Test
    void clustersNameThisClusterAboveTheListing() {
        String plain = sinfo().out();
        assertThat(sinfo("-M", "test")).isEqualTo(new Output(0, "CLUSTER: test\n" + plain, ""));
        assertThat(sinfo("--cluster=test", "-h").out()).isEqualTo(sinfo("-h").out());
        assertThat(sinfo("-l", "-M", "test").out()).contains("\nCLUSTER: test\nPARTITION ");
        assertThat(sinfo("-M", "foo").exitCode()).isEqualTo(1);
        assertThat(sinfo("-M", "foo").err()).startsWith("sinfo: error: No cluster 'foo' known by database.\n");
    }

    @Test
    void reservationsAreListedAsSlurmListsThem() {
        assertThat(sinfo("-T")).isEqualTo(new Output(0, "No reservations in the system\n", ""));
        assertThat(sinfo("--reservation", "-M", "test"))
                .isEqualTo(new Output(0, "CLUSTER: test\nNo reservations in the system\n", ""));
        reservations = true;
        // The layout of real sinfo -T 22.05: the name column as wide as the longest name.
        assertThat(sinfo("-T").out())
                .matches("RESV_NAME" + " ".repeat(14) + "STATE           START_TIME             END_TIME     DURATION"
                        + "  NODELIST\nmaintenance_window    ACTIVE  \\S{19}  \\S{19}   1-01:00:00  n\\[1-2\\]\n");
        // -h leaves the header out, as 22.05's sinfo -T -h does (compat 222).
        assertThat(sinfo("-T", "-h").out())
                .matches("maintenance_window    ACTIVE  \\S{19}  \\S{19}   1-01:00:00  n\\[1-2\\]\n");
    }

    @Test
    void yamlIsTheJsonDocumentInSlurmsYamlForm() {
        Output o = sinfo("--yaml");
        assertThat(o.exitCode()).isZero();
        assertThat(o.out())
                .startsWith("%YAML 1.1\n--- !!map\n!!str meta: !!map\n")
                .endsWith("...\n");
    }

    @Test
    void helpAndUsageAreSlurmsTexts() {
        assertThat(sinfo("--usage").out())
                .isEqualTo("Usage: sinfo [-abdelNRrsTv] [-i seconds] [-t states] [-p partition] [-n nodes]\n"
                        + "             [-S fields] [-o format] [-O Format] [--federation] [--local]\n");
        assertThat(sinfo("--help").out()).startsWith("Usage: sinfo [OPTIONS]\n").contains("  --yaml ");
    }
}
