package dev.sluice.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.command.scontrol.ScontrolCommand;
import dev.sluice.cli.testing.CommandFixture;
import dev.sluice.cli.testing.TestingInvocations.Output;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.GetJobsResponse;
import dev.sluice.protocol.v1.JobAction;
import dev.sluice.protocol.v1.JobChanges;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.SignalJobResponse;
import dev.sluice.protocol.v1.SlurmError;
import dev.sluice.protocol.v1.UpdateJobRequest;
import dev.sluice.protocol.v1.UpdateJobResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code scontrol hold|uhold|release} and {@code update JobId=}; messages and exit statuses as
 * Slurm 22.05's for the same command lines (job 99 unknown).
 */
class TestScontrolJobUpdates {
    @RegisterExtension
    // Job 99 does not exist; every other id is accepted.
    final CommandFixture cli = new CommandFixture(req -> {
        if (req.hasGetJobs()) {
            // Job 29's time limit is 20 minutes.
            GetJobsResponse.Builder jobs = GetJobsResponse.newBuilder();
            if (req.getGetJobs().getJobIdsList().contains(29)) {
                jobs.addJobs(JobInfo.newBuilder().setJobId(29).setTimeLimitMinutes(20));
            }
            return ClientResponse.newBuilder().setGetJobs(jobs).build();
        }
        UpdateJobResponse.Builder r = UpdateJobResponse.newBuilder();
        for (String id : req.getUpdateJob().getJobIdsList()) {
            SignalJobResponse.Result.Builder one =
                    SignalJobResponse.Result.newBuilder().setJobId(id);
            if (id.equals("99")) {
                one.setError(SlurmError.newBuilder()
                        .setCode(ErrorCode.INVALID_JOB_ID.number())
                        .setMessage(ErrorCode.INVALID_JOB_ID.text()));
            }
            r.addResults(one);
        }
        return ClientResponse.newBuilder().setUpdateJob(r).build();
    });

    private Output scontrol(String... args) {
        return cli.run(new ScontrolCommand(), args);
    }

    private UpdateJobRequest last() {
        return cli.controller()
                .requests()
                .get(cli.controller().requests().size() - 1)
                .getUpdateJob();
    }

    @Test
    void holdAndRelease() {
        assertThat(scontrol("hold", "29")).isEqualTo(new Output(0, "", ""));
        assertThat(last().getAction()).isEqualTo(JobAction.JOB_ACTION_HOLD);
        assertThat(scontrol("uhold", "29")).isEqualTo(new Output(0, "", ""));
        assertThat(last().getAction()).isEqualTo(JobAction.JOB_ACTION_UHOLD);
        assertThat(scontrol("release", "29,99"))
                .isEqualTo(new Output(
                        1, "", "Invalid job id specified for job 99\nslurm_suspend error: Invalid job id specified\n"));
        assertThat(last().getJobIdsList()).containsExactly("29", "99");
        assertThat(scontrol("hold")).isEqualTo(new Output(1, "", "too few arguments for keyword:hold\n"));
    }

    @Test
    void updateJobFields() {
        assertThat(scontrol("update", "JobId=29", "TimeLimit=5", "Name=renamed", "Comment=hi", "Nice=10"))
                .isEqualTo(new Output(0, "", ""));
        assertThat(last().getAction()).isEqualTo(JobAction.JOB_ACTION_UPDATE);
        assertThat(last().getChanges())
                .isEqualTo(JobChanges.newBuilder()
                        .setTimeLimit(5)
                        .setName("renamed")
                        .setComment("hi")
                        .setNice(10)
                        .build());
        assertThat(scontrol("update", "JobId=29", "TimeLimit=UNLIMITED", "Priority=0"))
                .isEqualTo(new Output(0, "", ""));
        assertThat(last().getChanges())
                .isEqualTo(
                        JobChanges.newBuilder().setTimeLimit(-1).setPriority(0).build());
        assertThat(scontrol("update", "JobId=99", "TimeLimit=5"))
                .isEqualTo(new Output(1, "", "Invalid job id specified for job 99\n"));
    }

    /** Slurm's scontrol takes {@code job 29} for {@code JobId=29} (compat scenario 174). */
    @Test
    void aTagWithoutEqualsTakesTheNextWordAsItsValue() {
        assertThat(scontrol("update", "job", "29", "Licenses=foo:2")).isEqualTo(new Output(0, "", ""));
        assertThat(last().getJobIdsList()).containsExactly("29");
        assertThat(last().getChanges())
                .isEqualTo(JobChanges.newBuilder().setLicenses("foo:2").build());
        assertThat(scontrol("update", "jobid", "29", "Licenses", "bar")).isEqualTo(new Output(0, "", ""));
        assertThat(last().getChanges())
                .isEqualTo(JobChanges.newBuilder().setLicenses("bar").build());
        assertThat(scontrol("update", "job", "99", "Comment=x"))
                .isEqualTo(new Output(1, "", "Invalid job id specified for job 99\n"));
    }

    @Test
    void aRelativeTimeLimitMovesTheJobsLimitAsTheControllerHasIt() {
        assertThat(scontrol("update", "JobId=29", "TimeLimit=+5")).isEqualTo(new Output(0, "", ""));
        assertThat(last().getChanges().getTimeLimit()).isEqualTo(25);
        assertThat(scontrol("update", "JobId=29", "TimeLimit=-1:00")).isEqualTo(new Output(0, "", ""));
        assertThat(last().getChanges().getTimeLimit()).isEqualTo(19);
        assertThat(scontrol("update", "JobId=29", "TimeLimit=-30"))
                .isEqualTo(new Output(
                        1, "", "scontrol: error: TimeLimit decrement larger than current time limit (30 > 20)\n"));
        assertThat(scontrol("update", "TimeLimit=+5", "JobId=29"))
                .isEqualTo(new Output(1, "", "scontrol: error: JobId must precede TimeLimit increment or decrement\n"));
    }

    @Test
    void aNodeCountIsTheLeastOrARange() {
        assertThat(scontrol("update", "JobId=29", "NumNodes=3", "NumTasks=4", "Partition=gpu"))
                .isEqualTo(new Output(0, "", ""));
        assertThat(last().getChanges())
                .isEqualTo(JobChanges.newBuilder()
                        .setMinNodes(3)
                        .setNumTasks(4)
                        .setPartition("gpu")
                        .build());
        assertThat(scontrol("update", "JobId=29", "NumNodes=1-2")).isEqualTo(new Output(0, "", ""));
        assertThat(last().getChanges())
                .isEqualTo(JobChanges.newBuilder().setMinNodes(1).setMaxNodes(2).build());
        assertThat(scontrol("update", "JobId=29", "NumNodes=x"))
                .isEqualTo(
                        new Output(1, "", "scontrol: error: Invalid numeric value \"x\" for requested node count.\n"));
    }

    @Test
    void updateJobRefusesBadInputLocally() {
        int before = cli.controller().requests().size();
        assertThat(scontrol("update", "JobId=29", "TimeLimit=abc"))
                .isEqualTo(new Output(1, "", "scontrol: error: Invalid TimeLimit value\n"));
        assertThat(scontrol("update", "jobid=29", "priority=abc"))
                .isEqualTo(new Output(1, "", "scontrol: error: Invalid Priority value: abc\n"));
        assertThat(scontrol("update", "JobId=29")).isEqualTo(new Output(1, "", "No changes specified\n"));
        assertThat(scontrol("update", "JobId=29", "Bogus=1"))
                .isEqualTo(new Output(1, "", "Update of this parameter is not supported: Bogus=1\nRequest aborted\n"));
        assertThat(cli.controller().requests()).hasSize(before);
    }
}
