package dev.sluice.cli.command.scontrol;

import static dev.sluice.cli.testing.TestingInvocations.invocation;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.command.sacct.SacctCommand;
import dev.sluice.cli.command.sbatch.SbatchCommand;
import dev.sluice.cli.command.squeue.SqueueCommand;
import dev.sluice.cli.testing.CommandFixture;
import dev.sluice.cli.testing.FakeDbd;
import dev.sluice.cli.testing.Fixtures;
import dev.sluice.cli.testing.TestingInvocations;
import dev.sluice.cli.testing.TestingInvocations.Output;
import dev.sluice.protocol.v1.AccountedJob;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.GetJobsResponse;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.protocol.v1.SubmitBatchJobResponse;
import dev.sluice.protocol.v1.UpdateJobResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Jobs' wckeys in the commands (compat 218, 221): sent by sbatch and scontrol update as typed,
 * shown by scontrol show job (only when the job carries one), squeue {@code %w} and {@code -O
 * WCKey}, and sacct's WCKey column and {@code --wckeys} filter, a default one marked {@code *}.
 */
class TestWckeyViews {
    @RegisterExtension
    final CommandFixture cli = new CommandFixture(req -> switch (req.getBodyCase()) {
        case GET_JOBS ->
            ClientResponse.newBuilder()
                    .setGetJobs(GetJobsResponse.newBuilder()
                            .addJobs(Fixtures.job(7, Fixtures.wrapSpec().setWckey("w218b"), JobState.PENDING))
                            .addJobs(Fixtures.job(8, Fixtures.wrapSpec().setWckey("*w218a"), JobState.PENDING))
                            .addJobs(Fixtures.job(9, Fixtures.wrapSpec(), JobState.PENDING)))
                    .build();
        case SUBMIT_BATCH_JOB ->
            ClientResponse.newBuilder()
                    .setSubmitBatchJob(SubmitBatchJobResponse.newBuilder().setJobId(42))
                    .build();
        case UPDATE_JOB ->
            ClientResponse.newBuilder()
                    .setUpdateJob(UpdateJobResponse.getDefaultInstance())
                    .build();
        default -> throw new AssertionError(req.getBodyCase());
    });

    @Test
    void scontrolShowsAWckeyAfterTheQosOnlyWhenTheJobCarriesOne() {
        assertThat(cli.run(new ScontrolCommand(), "show", "job", "7").out())
                .contains(" QOS=(null) WCKey=w218b\n")
                .doesNotContain("WCKey=*");
        assertThat(cli.run(new ScontrolCommand(), "show", "job", "8").out()).contains(" WCKey=*w218a\n");
        assertThat(cli.run(new ScontrolCommand(), "show", "job", "9").out()).doesNotContain("WCKey");
    }

    @Test
    void squeueShowsItByLetterAndByName() {
        assertThat(cli.run(new SqueueCommand(), "-h", "-S", "i", "-o", "%i %w").out())
                .isEqualTo("7 w218b\n8 *w218a\n9 (null)\n");
        assertThat(cli.run(new SqueueCommand(), "-h", "-S", "i", "-O", "jobid:4,wckey")
                        .out())
                .isEqualTo("7   w218b               \n8   *w218a              \n9   (null)              \n");
    }

    @Test
    void sbatchAndScontrolUpdateSendTheWckeyAsTyped() {
        assertThat(cli.run(new SbatchCommand(), "--wckey=w218b", "--wrap", "true")
                        .exitCode())
                .isZero();
        assertThat(cli.run(new ScontrolCommand(), "update", "job", "7", "WCKey=w221b")
                        .exitCode())
                .isZero();
        List<ClientRequest> sent = cli.controller().requests();
        assertThat(sent.get(0).getSubmitBatchJob().getSpec().getWckey()).isEqualTo("w218b");
        assertThat(sent.get(1).getUpdateJob().getChanges().getWckey()).isEqualTo("w221b");
    }

    @Test
    void sacctPrintsTheStoredWckeyAndFiltersOnIt() throws Exception {
        AccountedJob asked = AccountedJob.newBuilder()
                .setJobId(7)
                .setUserName("root")
                .setState(dev.sluice.protocol.v1.JobState.COMPLETED)
                .setWckey("w218b")
                .build();
        AccountedJob byDefault =
                asked.toBuilder().setJobId(8).setWckey("*w218b").build();
        try (FakeDbd dbd = FakeDbd.jobs(List.of(asked, byDefault))) {
            Map<String, String> acct = TestingInvocations.accountingConf(
                    cli.dir(),
                    dbd.port(),
                    "NodeName=n1 CPUs=4 RealMemory=8000 State=UNKNOWN",
                    "PartitionName=gpu Nodes=n1 Default=YES MaxTime=60 State=UP");
            Output all = TestingInvocations.run(
                    new SacctCommand(), invocation(cli.dir(), acct, "", "-X", "-n", "-P", "-o", "JobID,WCKey", "-a"));
            assertThat(all.out()).isEqualTo("7|w218b\n8|*w218b\n");
            // A wckey taken by default (*w218b) is not the one asked for by name.
            Output named = TestingInvocations.run(
                    new SacctCommand(),
                    invocation(cli.dir(), acct, "", "-X", "-n", "-P", "-o", "JobID,WCKey", "-a", "--wckeys=w218b"));
            assertThat(named.out()).isEqualTo("7|w218b\n");
        }
    }
}
