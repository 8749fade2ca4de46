package dev.sluice.cli.command.sacct;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.Invocation;
import dev.sluice.cli.getopt.OptionSpec;
import dev.sluice.cli.testing.FakeDbd;
import dev.sluice.cli.testing.TestingInvocations;
import dev.sluice.cli.testing.TestingInvocations.Output;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sacct's command line against real sacct 22.05's: the same long options in the same table
 * order (read off the real command: every {@code --x} prefix and its ambiguity list), values
 * checked with 22.05's messages, and the selections slurmdbd makes applied to the records.
 */
class TestSacctOptions {
    /** Real sacct 22.05's long options, in its getopt table's order. */
    static final String SLURM_SACCT = """
            allusers accounts allocations brief batch-script completion constraints delimiter duplicates
            federation helpformat help-fields endtime env-vars file flags gid group help local name nnodes
            ncpus jobs timelimit-min timelimit-max long allclusters cluster clusters nodelist noconvert units
            noheader fields format parsable parsable2 qos partition reason state starttime truncate uid
            use-local-uid usage user verbose version wckeys whole-hetjob associations json yaml
            """;

    @TempDir
    Path dir;

    private FakeDbd dbd;
    private Map<String, String> env;

    @BeforeEach
    void start() throws Exception {
        dbd = FakeDbd.jobsAndQos(SacctFixtures.jobs(), List.of("normal", "high"));
        env = TestingInvocations.accountingConf(
                dir,
                dbd.port(),
                "NodeName=n1 CPUs=4 RealMemory=8000 State=UNKNOWN",
                "PartitionName=gpu Nodes=n1 Default=YES MaxTime=60 State=UP");
    }

    @AfterEach
    void stop() throws Exception {
        dbd.close();
    }

    private Output sacct(String... args) {
        return sacct(env, dir, args);
    }

    /** sacct as root in {@code dir} with {@code env} (its slurm.conf), at {@link SacctFixtures#NOW}. */
    static Output sacct(Map<String, String> env, Path dir, String... args) {
        Invocation inv = new Invocation(
                List.of(args),
                env,
                dir,
                new ByteArrayInputStream(new byte[0]),
                TestingInvocations.ROOT,
                Clock.fixed(Instant.ofEpochSecond(SacctFixtures.NOW), ZoneOffset.UTC),
                TestingInvocations.USERS);
        return TestingInvocations.run(new SacctCommand(), inv);
    }

    /** Job ids of {@code -X -n -P -o jobid} under the extra options. */
    private String ids(String... extra) {
        String[] all = Arrays.copyOf(new String[] {"-X", "-n", "-P", "-o", "jobid", "-j", "1,2,3,4"}, 7 + extra.length);
        System.arraycopy(extra, 0, all, 7, extra.length);
        Output o = sacct(all);
        assertThat(o.err()).isEmpty();
        return o.out().replace('\n', ' ').strip();
    }

    private dev.sluice.protocol.v1.JobQuery lastQuery() {
        List<dev.sluice.protocol.v1.DbdRequest> requests = dbd.requests();
        return requests.get(requests.size() - 1).getQueryJobs();
    }

    @Test
    void everyLongOptionOfSlurmsSacctInSlurmsOrder() {
        assertThat(SacctOptions.TABLE.specs().stream()
                        .map(OptionSpec::longName)
                        .filter(Objects::nonNull)
                        .toList())
                .containsExactlyElementsOf(Arrays.asList(SLURM_SACCT.strip().split("\\s+")));
        assertThat(SacctOptions.TABLE.specs()).allMatch(OptionSpec::supported);
    }

    @Test
    void prefixesAreAsAmbiguousAsInSlurm() {
        // Real sacct 22.05's first lines for the same words.
        assertThat(sacct("--p").err())
                .startsWith(
                        "sacct: option '--p' is ambiguous; possibilities: '--parsable' '--parsable2' '--partition'\n");
        assertThat(sacct("--t").err())
                .startsWith("sacct: option '--t' is ambiguous; possibilities: '--timelimit-min' '--timelimit-max'"
                        + " '--truncate'\n");
        assertThat(sacct("--no").err())
                .startsWith(
                        "sacct: option '--no' is ambiguous; possibilities: '--nodelist' '--noconvert' '--noheader'\n");
        assertThat(sacct("--e").err())
                .startsWith("sacct: option '--e' is ambiguous; possibilities: '--endtime' '--env-vars'\n");
        assertThat(sacct("--us").err())
                .startsWith("sacct: option '--us' is ambiguous; possibilities: '--use-local-uid' '--usage' '--user'\n");
        // 22.05 has --reason but no -R.
        assertThat(sacct("-R", "x").err()).startsWith("sacct: invalid option -- 'R'\n");
    }

    @Test
    void badValuesGetSlurmsMessages() {
        // Each as real sacct 22.05 printed it; all exit 1.
        assertThat(sacct("-F", "bogus"))
                .isEqualTo(new Output(1, "", "sacct: error: str_2_job_flags: Invalid job flag bogus\n"));
        assertThat(sacct("-f", "/nonexistent")).isEqualTo(new Output(1, "", "/nonexistent is not a valid file\n"));
        assertThat(sacct("-f", "/tmp")).isEqualTo(new Output(1, "", "/tmp is not a valid file\n"));
        assertThat(sacct("-i", "x"))
                .isEqualTo(new Output(1, "", "sacct: error: Invalid numeric value \"x\" for requested node range.\n"));
        assertThat(sacct("-I", "1-x"))
                .isEqualTo(new Output(1, "", "sacct: error: Invalid numeric value \"1-x\" for requested cpu range.\n"));
        assertThat(sacct("-k", "0")).isEqualTo(new Output(1, "", "sacct: fatal: Invalid time limit specification\n"));
        assertThat(sacct("--whole-hetjob=x"))
                .isEqualTo(new Output(
                        1, "", "sacct: error: Invalid --whole-hetjob value \"x\". Valid values: [yes|no].\n"));
        assertThat(sacct("--reason=x"))
                .isEqualTo(new Output(1, "", "sacct: fatal: unrecognized job reason value 'x'\n"));
        assertThat(sacct("-g", "nosuchgrp"))
                .isEqualTo(new Output(1, "", "sacct: error: Invalid group id: nosuchgrp\n"));
        assertThat(sacct("-c")).isEqualTo(new Output(1, "", "Slurm job completion is disabled\n"));
        assertThat(sacct("-B"))
                .isEqualTo(new Output(
                        1,
                        "",
                        "sacct: fatal: When requesting job scripts you must also request specific jobs with the '-j'"
                                + " option.\n"));
        assertThat(sacct("-B", "--env-vars", "-j", "1"))
                .isEqualTo(new Output(
                        1, "", "sacct: fatal: Options --batch-script and --env-vars are mutually exclusive\n"));
        assertThat(sacct("-o", "jobid", "-l"))
                .isEqualTo(new Output(
                        1,
                        "",
                        "sacct: fatal: Options -o(--format) and -l(--long) are mutually exclusive. Please remove one"
                                + " and retry.\n"));
        assertThat(sacct("-q", "bogus"))
                .isEqualTo(new Output(
                        1,
                        "",
                        "sacct: error: You gave a bad qos 'bogus'. Valid QOS's are normal,high\n"
                                + "sacct: fatal: problem processing qos list\n"));
    }

    @Test
    void selectionsNarrowTheRecords() {
        assertThat(ids()).isEqualTo("1 2 3 4");
        // -k alone is that exact limit; with -K a range (job 3 has 1 minute, the others 60).
        assertThat(ids("-k", "1")).isEqualTo("3");
        assertThat(ids("--timelimit-min=2", "-K", "1:00:00")).isEqualTo("1 2 4");
        assertThat(ids("-N", "n1")).isEqualTo("1 2 3 4");
        assertThat(ids("--nodelist=n9")).isEmpty();
        assertThat(ids("-I", "1-2", "-i", "1")).isEqualTo("1 2 3 4");
        assertThat(ids("--ncpus=2")).isEmpty();
        assertThat(ids("-g", "root")).isEqualTo("1 2 3 4");
        assertThat(ids("--group=1000")).isEmpty();
        assertThat(ids("-q", "NORMAL")).isEqualTo("1 2 3 4");
        assertThat(ids("-q", "high")).isEmpty();
        assertThat(ids("-W", "wk")).isEmpty();
        assertThat(ids("-x", "0")).isEqualTo("1 2 3 4");
        assertThat(ids("--associations=7")).isEmpty();
        assertThat(ids("-C", "fast")).isEmpty();
        assertThat(ids("--reason=None")).isEmpty();
    }

    @Test
    void recordedOptionsChangeNothingHere() {
        String plain = ids();
        for (String o : new String[] {
            "-D",
            "-T",
            "--local",
            "--federation",
            "--use-local-uid",
            "--whole-hetjob",
            "--whole-hetjob=no",
            "-v",
            "-F SchedMain,schedsubmit"
        }) {
            String[] words = o.split(" ");
            assertThat(ids(words)).as(o).isEqualTo(plain);
        }
        // -u -1 is -a, -M all (or -1) is -L, as in Slurm's sacct.
        assertThat(ids("-u", "-1")).isEqualTo(plain);
        assertThat(ids("-M", "all")).isEqualTo(plain);
        assertThat(lastQuery().getClustersList()).isEmpty();
        assertThat(ids("--clusters=-1")).isEqualTo(plain);
        assertThat(lastQuery().getClustersList()).isEmpty();
        assertThat(ids("-M", "anchor")).isEqualTo(plain);
        assertThat(lastQuery().getClustersList()).containsExactly("anchor");
        // -t is the old spelling of -X.
        assertThat(sacct("-t", "-n", "-P", "-o", "jobid", "-j", "1").out()).isEqualTo("1\n");
    }

    @Test
    void duplicatesAsksForEveryRunOfRequeuedJobs() {
        ids("-D");
        assertThat(lastQuery().getDuplicates()).isTrue();
        ids("--duplicates");
        assertThat(lastQuery().getDuplicates()).isTrue();
        ids();
        assertThat(lastQuery().getDuplicates()).isFalse();
        // The runs requeues ended are in state REQUEUED (RQ), which -s selects.
        ids("-D", "-s", "RQ,requeued,CD");
        assertThat(lastQuery().getStatesList())
                .containsExactly(
                        dev.sluice.protocol.v1.JobState.REQUEUED,
                        dev.sluice.protocol.v1.JobState.REQUEUED,
                        dev.sluice.protocol.v1.JobState.COMPLETED);
        assertThat(dev.sluice.cli.view.JobStates.longName(dev.sluice.protocol.v1.JobState.REQUEUED))
                .isEqualTo("REQUEUED");
        // squeue's states are the ones jobs are in: REQUEUED stays a flag there.
        assertThat(dev.sluice.cli.view.JobStates.parse("RQ")).isEmpty();
    }

    @Test
    void scriptsAndEnvironmentsAreNotKeptAsWithoutAccountingStoreFlags() {
        // The layout real sacct 22.05 printed for a job whose script was not stored.
        assertThat(sacct("-B", "-j", "1").out()).isEqualTo("Batch Script for 1\n" + "-".repeat(80) + "\nNONE\n\n");
        assertThat(sacct("--env-vars", "-j", "2").out())
                .isEqualTo("Environment used for 2 (must be batch to display)\n" + "-".repeat(80) + "\nNONE\n\n");
    }

    @Test
    void yamlIsTheJsonDocumentInSlurmsYamlForm() {
        Output o = sacct("--yaml", "-j", "1");
        assertThat(o.err()).isEmpty();
        assertThat(o.out())
                .startsWith("%YAML 1.1\n--- !!map\n!!str meta: !!map\n")
                .endsWith("...\n");
    }
}
