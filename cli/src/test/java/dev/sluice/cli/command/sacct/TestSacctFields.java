package dev.sluice.cli.command.sacct;

import static dev.sluice.cli.testing.TestingInvocations.golden;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.Caller;
import dev.sluice.cli.Invocation;
import dev.sluice.cli.testing.FakeDbd;
import dev.sluice.cli.testing.TestingInvocations;
import dev.sluice.cli.testing.TestingInvocations.Output;
import dev.sluice.protocol.v1.AccountedJob;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every field of sacct 22.05 over job 5000504 ({@link SacctFixtures#steps}): the golden files
 * are real sacct's unedited stdout for that job, {@code sacct -j 5000504 -P -o <every field
 * but SubmitLine, SystemCPU, TotalCPU and UserCPU>} (Sluice keeps neither the command lines nor
 * CPU usage), {@code sacct -l -j 5000504}, {@code --helpformat} and {@code --units=K}.
 */
class TestSacctFields {
    @TempDir
    Path dir;

    private FakeDbd dbd;
    private Map<String, String> env;

    @BeforeEach
    void start() throws Exception {
        dbd = FakeDbd.jobs(List.of(SacctFixtures.steps()));
        env = TestingInvocations.accountingConf(
                dir,
                dbd.port(),
                "NodeName=n[1-2] CPUs=4 RealMemory=8000 State=UNKNOWN",
                "PartitionName=gpu Nodes=n[1-2] Default=YES MaxTime=60 State=UP");
    }

    @AfterEach
    void stop() throws Exception {
        dbd.close();
    }

    private Output sacctAs(Caller caller, String... args) {
        Invocation inv = new Invocation(
                List.of(args),
                env,
                dir,
                new ByteArrayInputStream(new byte[0]),
                caller,
                Clock.fixed(Instant.ofEpochSecond(1_796_317_000L), ZoneOffset.UTC),
                TestingInvocations.USERS);
        return TestingInvocations.run(new SacctCommand(), inv);
    }

    private Output sacct(String... args) {
        return sacctAs(TestingInvocations.ROOT, args);
    }

    private void assertPrints(String golden, String... args) throws Exception {
        assertThat(sacct(args)).isEqualTo(new Output(0, golden(golden), ""));
    }

    @Test
    void everyFieldOfAJobAndItsSteps() throws Exception {
        String fields =
                golden("sacct-all-fields.txt").lines().findFirst().orElseThrow().replace('|', ',');
        assertPrints("sacct-all-fields.txt", "-j", "5000504", "-P", "-o", fields);
    }

    @Test
    void longFormat() throws Exception {
        assertPrints("sacct-l.txt", "-l", "-j", "5000504");
    }

    @Test
    void helpFormatListsEveryField() throws Exception {
        assertPrints("sacct-helpformat.txt", "--helpformat");
    }

    @Test
    void unitsScaleMemoryInReqMemAndTres() throws Exception {
        assertPrints(
                "sacct-units-k.txt", "-j", "5000504", "-X", "-o", "JobID,ReqMem,ReqTRES,AllocTRES%30", "--units=K");
        assertThat(sacct("-j", "5000504", "-X", "-P", "-n", "-o", "ReqMem,ReqTRES", "--units=g")
                        .out())
                .isEqualTo("7.81G|billing=2,cpu=2,mem=7.81G,node=1\n");
        // --units wins over --noconvert, whichever comes first.
        assertThat(sacct("-j", "5000504", "-X", "-P", "-n", "-o", "ReqMem", "--units=T", "--noconvert")
                        .out())
                .isEqualTo("0.01T\n");
    }

    @Test
    void noconvertKeepsMegabytes() throws Exception {
        dbd.close();
        AccountedJob j = SacctFixtures.steps().toBuilder()
                .setReqTres("billing=1,cpu=1,mem=1.50G,node=1")
                .build();
        dbd = FakeDbd.jobs(List.of(j));
        rewritePort(dbd.port());
        assertThat(sacct("-j", "5000504", "-X", "-P", "-n", "-o", "ReqMem,ReqTRES")
                        .out())
                .isEqualTo("1.50G|billing=1,cpu=1,mem=1.50G,node=1\n");
        assertThat(sacct("-j", "5000504", "-X", "-P", "-n", "-o", "ReqMem,ReqTRES", "--noconvert")
                        .out())
                .isEqualTo("1536M|billing=1,cpu=1,mem=1536M,node=1\n");
    }

    @Test
    void aBadUnitIsFatal() {
        assertThat(sacct("-j", "5000504", "--units=X"))
                .isEqualTo(new Output(
                        1,
                        "",
                        "sacct: error: Invalid unit type 'X'. Possible options are 'KMGTP'\n"
                                + "sacct: fatal: Invalid unit type\n"));
        // Slurm prints the empty letter as a NUL, which ends its message there.
        assertThat(sacct("-j", "5000504", "--units="))
                .isEqualTo(new Output(1, "", "sacct: error: Invalid unit type '\nsacct: fatal: Invalid unit type\n"));
        assertThat(dbd.requests()).isEmpty();
    }

    @Test
    void whoCancelledShowsInTheStateAndIsCutInANarrowColumn() {
        assertThat(sacct("-j", "5000504", "-o", "JobID,State,State%16").out()).isEqualTo("""
                        JobID             State            State\s
                        ------------ ---------- ----------------\s
                        5000504      CANCELLED+   CANCELLED by 0\s
                        5000504.bat+  CANCELLED        CANCELLED\s
                        5000504.0     COMPLETED        COMPLETED\s
                        5000504.1     COMPLETED        COMPLETED\s
                        5000504.2    CANCELLED+   CANCELLED by 0\s
                        """);
    }

    @Test
    void aUserNamingJobsSeesThemWhoeverOwnsThem() {
        Caller alice = new Caller(1000, 1000, "alice", "localhost");
        sacctAs(alice, "-j", "5000504");
        assertThat(dbd.requests().getLast().getQueryJobs().getUidsList()).isEmpty();
        sacctAs(alice);
        assertThat(dbd.requests().getLast().getQueryJobs().getUidsList()).containsExactly(1000);
    }

    @Test
    void namedJobsAreLookedForSinceTheEpochAlsoByState() {
        // Slurm 22.05: sacct -j J -s CD finds a job that completed an hour ago; -s alone looks at now.
        sacct("-j", "5000504", "-s", "CA");
        assertThat(dbd.requests().getLast().getQueryJobs().getWindowStart()).isZero();
        sacct("-s", "CA");
        assertThat(dbd.requests().getLast().getQueryJobs().getWindowStart()).isEqualTo(1_796_317_000L);
    }

    private void rewritePort(int port) throws Exception {
        Path conf = Path.of(env.get("SLURM_CONF"));
        Files.writeString(
                conf, Files.readString(conf).replaceAll("AccountingStoragePort=\\d+", "AccountingStoragePort=" + port));
    }
}
