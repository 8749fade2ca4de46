package dev.sluice.cli.command.sacct;

import static dev.sluice.cli.testing.TestingInvocations.golden;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.Caller;
import dev.sluice.cli.Invocation;
import dev.sluice.cli.testing.FakeDbd;
import dev.sluice.cli.testing.TestingInvocations;
import dev.sluice.cli.testing.TestingInvocations.Output;
import dev.sluice.protocol.v1.JobQuery;
import dev.sluice.protocol.v1.JobState;
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
 * sacct against golden files: each {@code golden/sacct-*.txt} is the unedited stdout of real
 * sacct 22.05 over the jobs {@link SacctFixtures} describes (command line in each test).
 */
class TestSacct {
    @TempDir
    Path dir;

    private FakeDbd dbd;
    private Map<String, String> env;

    @BeforeEach
    void start() throws Exception {
        dbd = FakeDbd.jobs(SacctFixtures.jobs());
        env = conf("accounting_storage/slurmdbd", dbd.port());
    }

    @AfterEach
    void stop() throws Exception {
        dbd.close();
    }

    private Map<String, String> conf(String storage, int port) throws Exception {
        Path conf = dir.resolve("slurm.conf");
        Files.writeString(conf, """
                ClusterName=anchor
                SlurmctldHost=vm(127.0.0.1)
                AccountingStorageType=%s
                AccountingStorageHost=127.0.0.1
                AccountingStoragePort=%d
                NodeName=n1 CPUs=4 RealMemory=8000 State=UNKNOWN
                PartitionName=gpu Nodes=n1 Default=YES MaxTime=60 State=UP
                """.formatted(storage, port));
        return Map.of("SLURM_CONF", conf.toString());
    }

    private Output sacct(String... args) {
        return sacctAs(TestingInvocations.ROOT, args);
    }

    private Output sacctAs(Caller caller, String... args) {
        Invocation inv = new Invocation(
                List.of(args),
                env,
                dir,
                new ByteArrayInputStream(new byte[0]),
                caller,
                Clock.fixed(Instant.ofEpochSecond(SacctFixtures.NOW), ZoneOffset.UTC),
                TestingInvocations.USERS);
        return TestingInvocations.run(new SacctCommand(), inv);
    }

    private void assertGolden(String file, String... args) throws Exception {
        Output o = sacct(args);
        assertThat(o.err()).isEmpty();
        assertThat(o.exitCode()).isZero();
        assertThat(o.out()).isEqualTo(golden(file));
    }

    @Test
    void defaultColumns() throws Exception {
        assertGolden("sacct-default.txt"); // sacct
    }

    /**
     * {@code sacct --json -j 1,3}: the layout of 22.05's openapi/dbv0.0.38 dumper (member order
     * from SchedMD/slurm src/plugins/openapi/dbv0.0.38/parse.c parse_job/parse_job_step; json-c
     * pretty printing as squeue --json). Not recorded from a real sacct: the real-slurm cluster
     * here runs without accounting.
     */
    @Test
    void jsonInThe2205Layout() throws Exception {
        Output o = sacct("--json", "-j", "1,3");
        assertThat(o.err()).isEmpty();
        assertThat(o.exitCode()).isZero();
        assertThat(o.out()).isEqualTo(golden("sacct-json.txt"));
    }

    @Test
    void allocationsOnly() throws Exception {
        assertGolden("sacct-X.txt", "-X");
    }

    @Test
    void parsableAndParsable2() throws Exception {
        assertGolden("sacct-p.txt", "-p");
        assertGolden("sacct-Pn.txt", "-P", "-n");
    }

    @Test
    void explicitWidthsJustifyAndCut() throws Exception {
        assertGolden("sacct-widths.txt", "-X", "-o", "JobID%20,JobName%30,State%-12,exitcode%3");
    }

    @Test
    void idsUsersAndTimes() throws Exception {
        assertGolden(
                "sacct-times.txt",
                "-o",
                "jobid,jobidraw,user,uid,group,gid,submit,eligible,start,end,elapsed,elapsedraw");
    }

    @Test
    void nodesTresLimitsAndPrefixNames() throws Exception {
        assertGolden(
                "sacct-misc.txt",
                "-o",
                "nnodes,nodelist,alloctres,reqtres%40,timelimit,cluster,workdir,ncpus,allocnodes");
    }

    @Test
    void briefFormat() throws Exception {
        assertGolden("sacct-b.txt", "-b");
    }

    @Test
    void jobAndStepSelection() throws Exception {
        assertGolden("sacct-j.txt", "-j", "2,4.batch");
        JobQuery q = dbd.requests().getLast().getQueryJobs();
        assertThat(q.getJobIdsList()).containsExactly(2, 4);
        // -j alone reaches back to the epoch.
        assertThat(q.getWindowStart()).isZero();
    }

    @Test
    void arrayTasksByArrayIdAndByTask() throws Exception {
        dbd.close();
        dbd = FakeDbd.jobs(SacctFixtures.array());
        env = conf("accounting_storage/slurmdbd", dbd.port());
        assertGolden("sacct-array.txt", "-j", "6", "-o", "jobid,jobidraw,state");
        assertGolden("sacct-array-task.txt", "-j", "6_2,6_3.batch", "-o", "jobid,jobidraw,state");
        assertThat(dbd.requests().getLast().getQueryJobs().getJobIdsList()).containsExactly(6);
    }

    @Test
    void theQueryCarriesTheFiltersAndToday() {
        sacct("-s", "CA,to", "-S", "2026-11-29T08:00", "-E", "now", "-A", "root", "-r", "gpu", "--name", "wrap");
        JobQuery q = dbd.requests().getLast().getQueryJobs();
        assertThat(q.getStatesList()).containsExactly(JobState.CANCELLED, JobState.TIMEOUT);
        assertThat(q.getWindowStart())
                .isEqualTo(Instant.parse("2026-11-29T08:00:00Z").getEpochSecond());
        assertThat(q.getWindowEnd()).isEqualTo(SacctFixtures.NOW);
        assertThat(q.getAccountsList()).containsExactly("root");
        assertThat(q.getPartitionsList()).containsExactly("gpu");
        assertThat(q.getJobNamesList()).containsExactly("wrap");
        assertThat(q.getClustersList()).containsExactly("anchor");
        assertThat(q.getUidsList()).isEmpty(); // root sees everyone

        sacct();
        q = dbd.requests().getLast().getQueryJobs();
        assertThat(q.getWindowStart())
                .isEqualTo(Instant.parse("2026-11-29T00:00:00Z").getEpochSecond());
        assertThat(q.getStatesList()).isEmpty();
    }

    @Test
    void aUserSeesTheirOwnJobsUnlessAllIsAsked() {
        Caller alice = new Caller(1000, 1000, "alice", "localhost");
        sacctAs(alice);
        assertThat(dbd.requests().getLast().getQueryJobs().getUidsList()).containsExactly(1000);
        sacctAs(alice, "-a");
        assertThat(dbd.requests().getLast().getQueryJobs().getUidsList()).isEmpty();
        sacctAs(alice, "-u", "root");
        assertThat(dbd.requests().getLast().getQueryJobs().getUsersList()).containsExactly("root");
    }

    @Test
    void anHourAheadMeansYesterdaysHour() {
        // 09:05 now: "-S 10:00" is yesterday at ten, not tomorrow.
        sacct("-S", "10:00");
        assertThat(dbd.requests().getLast().getQueryJobs().getWindowStart())
                .isEqualTo(Instant.parse("2026-11-28T10:00:00Z").getEpochSecond());
    }

    @Test
    void errorsAsSlurmPrintsThem() throws Exception {
        assertThat(sacct("-o", "foo")).isEqualTo(new Output(1, "", "sacct: error: Invalid field requested: \"foo\"\n"));
        assertThat(sacct("-s", "XX")).isEqualTo(new Output(1, "", "sacct: fatal: unrecognized job state value 'XX'\n"));
        assertThat(sacct("-j", "abc")).isEqualTo(new Output(1, "", "sacct: fatal: Bad job/step specified: abc\n"));
        assertThat(sacct("-u", "nosuchuser"))
                .isEqualTo(new Output(1, "", "sacct: error: Invalid user id: nosuchuser\n"));
        assertThat(sacct("-S", "foo")).isEqualTo(new Output(1, "", "Invalid time specification (pos=0): foo\n"));
        assertThat(sacct("-S", "2099-01-01"))
                .isEqualTo(new Output(
                        1,
                        "",
                        "sacct: error: Start time (2099-01-01T00:00:00) requested is after end time"
                                + " (2026-11-29T09:05:00).\n"));
        assertThat(dbd.requests()).isEmpty();
    }

    @Test
    void withoutSlurmdbdAccountingIsDisabled() throws Exception {
        env = conf("accounting_storage/none", dbd.port());
        assertThat(sacct()).isEqualTo(new Output(1, "", "Slurm accounting storage is disabled\n"));
    }

    @Test
    void anUnreachableDbdIsReported() throws Exception {
        int port;
        // A port nothing listens on any more (and no thread waits in accept on it).
        try (java.net.ServerSocket gone = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = gone.getLocalPort();
        }
        env = conf("accounting_storage/slurmdbd", port);
        assertThat(sacct())
                .isEqualTo(new Output(1, "", "sacct: error: Problem talking to the database: Connection refused\n"));
    }
}
