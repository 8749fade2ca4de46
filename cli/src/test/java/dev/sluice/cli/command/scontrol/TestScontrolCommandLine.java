package dev.sluice.cli.command.scontrol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.getopt.OptionSpec;
import dev.sluice.cli.testing.Answers;
import dev.sluice.cli.testing.CommandFixture;
import dev.sluice.cli.testing.Fixtures;
import dev.sluice.cli.testing.TestingInvocations.Output;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.GetPartitionsResponse;
import dev.sluice.protocol.v1.SignalJobResponse;
import dev.sluice.protocol.v1.SlurmError;
import dev.sluice.protocol.v1.UpdateJobResponse;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * scontrol's command line against real Slurm 22.05's: the same long options in the same table
 * order, glibc's messages with status 1, and what each option does, each expectation read off
 * the real scontrol on the same line.
 */
class TestScontrolCommandLine {
    /**
     * Real scontrol 22.05's long options in its table's order: {@code scontrol --a=1} ...
     * {@code --z=1} (an ambiguous prefix lists its options in table order); {@code --cl}
     * resolves to {@code --cluster}, the first of the two. No --json or --yaml in 22.05.
     */
    static final String SLURM_SCONTROL = """
            all cluster clusters details federation future help hide local oneliner quiet sibling uid usage
            verbose version
            """;

    /** Real scontrol's short letters: {@code scontrol -X version} for every letter. */
    static final String SLURM_SHORT = "a d h o u v F M Q V";

    @RegisterExtension
    final CommandFixture cli = new CommandFixture(req -> switch (req.getBodyCase()) {
        case PING -> Answers.ping("test");
        case GET_JOBS -> Answers.jobs(Fixtures.jobs());
        case GET_NODES -> Answers.nodes(Fixtures.nodes());
        case GET_PARTITIONS ->
            ClientResponse.newBuilder()
                    .setGetPartitions(GetPartitionsResponse.newBuilder()
                            .addPartitions(Fixtures.gpuPartition())
                            .addPartitions(Fixtures.gpuPartition()
                                    .setName("secret")
                                    .setHidden(true)
                                    .setIsDefault(false)))
                    .build();
        case UPDATE_JOB ->
            ClientResponse.newBuilder()
                    .setUpdateJob(UpdateJobResponse.newBuilder()
                            .addResults(SignalJobResponse.Result.newBuilder()
                                    .setJobId("99999")
                                    .setError(SlurmError.newBuilder().setCode(ErrorCode.INVALID_JOB_ID.number()))))
                    .build();
        default -> throw new AssertionError("unexpected " + req.getBodyCase());
    });

    private Output scontrol(String... args) {
        return cli.run(new ScontrolCommand(), args);
    }

    private static String ping() {
        return "Slurmctld(primary) at ctl is UP\n";
    }

    @Test
    void everyOptionOfSlurmsScontrolIsTakenInSlurmsOrder() {
        List<OptionSpec> specs = ScontrolOptions.TABLE.specs();
        assertThat(specs.stream().map(OptionSpec::longName).toList())
                .containsExactlyElementsOf(Arrays.asList(SLURM_SCONTROL.strip().split("\\s+")));
        assertThat(specs).allMatch(OptionSpec::supported);
        assertThat(specs.stream()
                        .filter(s -> s.shortName() != 0)
                        .map(s -> String.valueOf(s.shortName()))
                        .distinct()
                        .sorted()
                        .toList())
                .containsExactlyInAnyOrderElementsOf(Arrays.asList(SLURM_SHORT.split(" ")));
    }

    @Test
    void badLinesAreGlibcsWordsAndStatus1() {
        // Real scontrol 22.05 on each line.
        assertThat(scontrol("--bogus"))
                .isEqualTo(new Output(
                        1,
                        "",
                        "scontrol: unrecognized option '--bogus'\nTry \"scontrol --help\" for more information\n"));
        assertThat(scontrol("-x").err()).startsWith("scontrol: invalid option -- 'x'\n");
        assertThat(scontrol("--h=1").err())
                .startsWith("scontrol: option '--h=1' is ambiguous; possibilities: '--help' '--hide'\n");
        assertThat(scontrol("--f=1").err())
                .startsWith("scontrol: option '--f=1' is ambiguous; possibilities: '--federation' '--future'\n");
        assertThat(scontrol("--u=1").err())
                .startsWith("scontrol: option '--u=1' is ambiguous; possibilities: '--uid' '--usage'\n");
        assertThat(scontrol("--cl").err()).startsWith("scontrol: option '--cluster' requires an argument\n");
        assertThat(scontrol("-u").err()).startsWith("scontrol: option requires an argument -- 'u'\n");
        assertThat(scontrol("--json", "ping").err()).startsWith("scontrol: unrecognized option '--json'\n");
        assertThat(scontrol("--a=1").err()).startsWith("scontrol: option '--all' doesn't allow an argument\n");
        assertThat(scontrol("--bogus").exitCode()).isEqualTo(1);
        assertThat(cli.controller().requests()).isEmpty();
    }

    @Test
    void anEmptyUsersOrAccountsNamesNobody() {
        // Real scontrol 22.05: "Users=" (a script's unset $USER) is as if none were given.
        String refused =
                "scontrol: error: Either Users/Groups and/or Accounts must be specified.  No reservation created.\n";
        assertThat(scontrol("create", "res", "ReservationName=x", "StartTime=now", "Duration=5", "Users=", "Nodes=n1"))
                .isEqualTo(new Output(1, "", refused));
        assertThat(scontrol(
                        "create",
                        "res",
                        "ReservationName=x",
                        "StartTime=now",
                        "Duration=5",
                        "Users=",
                        "Accounts=",
                        "Nodes=n1"))
                .isEqualTo(new Output(1, "", refused));
        assertThat(cli.controller().requests()).isEmpty();
    }

    @Test
    void optionsBeforeABadOneHaveActedAlready() {
        // Real: scontrol -h -x prints the help (0); -x -h the complaint (1); -M x -x the
        // cluster errors (1); -u 99999 -x the uid error (0).
        assertThat(scontrol("-h", "-x").out()).startsWith("scontrol [<OPTION>] [<COMMAND>]\n");
        assertThat(scontrol("-hx").exitCode()).isZero();
        assertThat(scontrol("-x", "-h"))
                .isEqualTo(new Output(
                        1, "", "scontrol: invalid option -- 'x'\nTry \"scontrol --help\" for more information\n"));
        assertThat(scontrol("-M", "x", "-x"))
                .isEqualTo(new Output(
                        1,
                        "",
                        "scontrol: error: No cluster 'x' known by database.\nscontrol: error: 'x' can't be reached now,"
                                + " or it is an invalid entry for --cluster.  Use 'sacctmgr list clusters' to see"
                                + " available clusters.\n"));
        assertThat(scontrol("-u", "99999", "-x"))
                .isEqualTo(new Output(0, "", "scontrol: error: --uid=\"99999\" invalid\n"));
        assertThat(scontrol("-V", "--bogus")).isEqualTo(new Output(0, "slurm-wlm 22.05.8\n", ""));
    }

    @Test
    void helpUsageAndVersion() {
        // Real scontrol prints the same text for -h, --help and --usage.
        Output help = scontrol("--help");
        assertThat(help.exitCode()).isZero();
        assertThat(help.out())
                .startsWith("scontrol [<OPTION>] [<COMMAND>]\n    Valid <OPTION> values are:\n")
                .contains("     -u,--uid       Update job as user \"uid\" instead of the invoking user.\n");
        assertThat(scontrol("--usage").out()).isEqualTo(help.out());
        assertThat(scontrol("-h").out()).isEqualTo(help.out());
        assertThat(scontrol("--vers")).isEqualTo(new Output(0, "slurm-wlm 22.05.8\n", ""));
        assertThat(cli.controller().requests()).isEmpty();
    }

    @Test
    void clustersOtherThanThisOneAreUnknownToTheDatabase() {
        // Real: scontrol -M x,y ping; -M x,anchor ping; -M ANCHOR ping; -M all ping; -M '' ping.
        String unreachable = "' can't be reached now, or it is an invalid entry for --cluster.  "
                + "Use 'sacctmgr list clusters' to see available clusters.\n";
        assertThat(scontrol("-M", "x,y", "ping"))
                .isEqualTo(new Output(
                        1,
                        "",
                        "scontrol: error: No cluster 'x' known by database.\n"
                                + "scontrol: error: No cluster 'y' known by database.\n"
                                + "scontrol: error: 'x,y" + unreachable));
        assertThat(scontrol("-M", "x,test", "ping"))
                .isEqualTo(new Output(0, ping(), "scontrol: error: No cluster 'x' known by database.\n"));
        assertThat(scontrol("--clusters=TEST", "ping")).isEqualTo(new Output(0, ping(), ""));
        assertThat(scontrol("--cluster", "all", "ping")).isEqualTo(new Output(0, ping(), ""));
        assertThat(scontrol("-M", "", "ping").err())
                .isEqualTo("scontrol: error: No cluster '' known by database.\nscontrol: error: '" + unreachable);
        // In command-line order: the first bad -M ends it.
        assertThat(scontrol("-M", "x", "-M", "test", "ping").exitCode()).isEqualTo(1);
    }

    @Test
    void uidMustNameAUserOfThisHost() {
        assertThat(scontrol("-u", "alice", "ping")).isEqualTo(new Output(0, ping(), ""));
        assertThat(scontrol("--uid=1000", "ping")).isEqualTo(new Output(0, ping(), ""));
        // Real: scontrol -u 99999 ping, with the status it still had (0).
        assertThat(scontrol("-u", "99999", "ping"))
                .isEqualTo(new Output(0, "", "scontrol: error: --uid=\"99999\" invalid\n"));
        assertThat(scontrol("-u", "nosuchuser", "ping").err())
                .isEqualTo("scontrol: error: --uid=\"nosuchuser\" invalid\n");
    }

    @Test
    void quietLeavesOutWhatSlurmsQuietFlagGuards() {
        // Real scontrol with and without -Q on each line.
        assertThat(scontrol("-Q", "show", "partition", "nosuch")).isEqualTo(new Output(1, "", ""));
        assertThat(scontrol("show", "partition", "nosuch"))
                .isEqualTo(new Output(1, "Partition nosuch not found\n", ""));
        assertThat(scontrol("-Q", "show", "node", "nosuch")).isEqualTo(new Output(1, "", ""));
        assertThat(scontrol("-Q", "show", "job", "abc")).isEqualTo(new Output(1, "", ""));
        assertThat(scontrol("-Q", "show", "bogus")).isEqualTo(new Output(1, "", ""));
        assertThat(scontrol("-Q", "hold")).isEqualTo(new Output(1, "", ""));
        assertThat(scontrol("-Q", "hold", "99999")).isEqualTo(new Output(1, "", ""));
        assertThat(scontrol("hold", "99999").err())
                .isEqualTo("Invalid job id specified for job 99999\nslurm_suspend error: Invalid job id specified\n");
        assertThat(scontrol("-Q", "update", "jobid=99999", "timelimit=5")).isEqualTo(new Output(1, "", ""));
        // Not guarded in Slurm: bad values, bad keywords, error() lines.
        assertThat(scontrol("-Q", "update", "jobid=99999", "bogus=1").err())
                .isEqualTo("Update of this parameter is not supported: bogus=1\nRequest aborted\n");
        assertThat(scontrol("-Q", "bogus").err()).isEqualTo("invalid keyword: bogus\n");
        assertThat(scontrol("-Q", "show", "hostnames").err()).isEqualTo("scontrol: error: host list is empty\n");
        // -v after -Q turns it off again, as it sets the same flag.
        assertThat(scontrol("-Q", "-v", "show", "job", "abc").err())
                .isEqualTo("scontrol_print_job error: Invalid job id specified\n");
    }

    @Test
    void verbosePrintsTheLoadLineBeforeAListing() {
        // Real: scontrol -v show part|node n1|job 57|job: last_update_time=..., records=N.
        String now = "2026-11-29T08:47:04";
        assertThat(scontrol("-v", "show", "part").out())
                .startsWith("last_update_time=" + now + ", records=1\nPartitionName=gpu\n");
        assertThat(scontrol("-v", "show", "node", "n1").out())
                .startsWith("last_update_time=" + now + ", records="
                        + Fixtures.nodes().size() + "\nNodeName=n1 ");
        assertThat(scontrol("-v", "show", "job", "1").out())
                .startsWith("last_update_time=Unknown, records=1\nJobId=1 ");
        assertThat(scontrol("-v", "show", "job").out())
                .startsWith("last_update_time=" + now + ", records="
                        + Fixtures.jobs().size() + "\n");
        assertThat(scontrol("show", "part").out()).startsWith("PartitionName=gpu\n");
    }

    @Test
    void hiddenPartitionsNeedAll() {
        assertThat(scontrol("show", "part").out()).doesNotContain("secret");
        assertThat(scontrol("show", "part", "secret")).isEqualTo(new Output(1, "Partition secret not found\n", ""));
        assertThat(scontrol("-a", "show", "part").out()).contains("PartitionName=secret\n");
        assertThat(scontrol("--all", "show", "part", "secret").out()).startsWith("PartitionName=secret\n");
        // --hide undoes -a; the last one wins.
        assertThat(scontrol("-a", "--hide", "show", "part").out()).doesNotContain("secret");
        assertThat(scontrol("-o", "-a", "show", "part").out().lines().count()).isEqualTo(2);
    }

    @Test
    void federationOptionsAndTheRestAreTaken() {
        // Real: each of these with ping answers as plain ping does.
        for (String o : List.of("--local", "--sibling", "--federation", "-d", "-F", "--future", "--details", "-Q")) {
            assertThat(scontrol(o, "ping")).as(o).isEqualTo(new Output(0, ping(), ""));
        }
    }
}
