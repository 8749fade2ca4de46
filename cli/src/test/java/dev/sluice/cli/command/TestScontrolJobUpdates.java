package dev.sluice.cli.command;

import static dev.sluice.cli.testing.TestingInvocations.confFor;
import static dev.sluice.cli.testing.TestingInvocations.invocation;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.command.scontrol.ScontrolCommand;
import dev.sluice.cli.testing.FakeController;
import dev.sluice.cli.testing.TestingInvocations;
import dev.sluice.cli.testing.TestingInvocations.Output;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.SignalJobResponse;
import dev.sluice.protocol.v1.SlurmError;
import dev.sluice.protocol.v1.UpdateJobRequest;
import dev.sluice.protocol.v1.UpdateJobResponse;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scontrol hold|uhold|release} and {@code update JobId=}; messages and exit statuses as
 * Slurm 22.05's for the same command lines (job 99 unknown).
 */
class TestScontrolJobUpdates {
    @TempDir
    Path dir;

    private FakeController controller;
    private Map<String, String> env;

    @BeforeEach
    void start() throws IOException {
        // Job 99 does not exist; every other id is accepted.
        controller = new FakeController(req -> {
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
        env = confFor(dir, controller.port());
    }

    @AfterEach
    void stop() throws IOException {
        controller.close();
    }

    private Output scontrol(String... args) {
        return TestingInvocations.run(new ScontrolCommand(), invocation(dir, env, "", args));
    }

    private UpdateJobRequest last() {
        return controller.requests().get(controller.requests().size() - 1).getUpdateJob();
    }

    @Test
    void holdAndRelease() {
        assertThat(scontrol("hold", "29")).isEqualTo(new Output(0, "", ""));
        assertThat(last().getAction()).isEqualTo("hold");
        assertThat(scontrol("uhold", "29")).isEqualTo(new Output(0, "", ""));
        assertThat(last().getAction()).isEqualTo("uhold");
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
        assertThat(last().getAction()).isEmpty();
        assertThat(last().getFieldsMap())
                .containsEntry("TimeLimit", "5")
                .containsEntry("Name", "renamed")
                .containsEntry("Comment", "hi")
                .containsEntry("Nice", "10");
        assertThat(scontrol("update", "JobId=99", "TimeLimit=5"))
                .isEqualTo(new Output(1, "", "Invalid job id specified for job 99\n"));
    }

    @Test
    void updateJobRefusesBadInputLocally() {
        int before = controller.requests().size();
        assertThat(scontrol("update", "JobId=29", "TimeLimit=abc"))
                .isEqualTo(new Output(1, "", "scontrol: error: Invalid TimeLimit value\n"));
        assertThat(scontrol("update", "jobid=29", "priority=abc"))
                .isEqualTo(new Output(1, "", "scontrol: error: Invalid Priority value: abc\n"));
        assertThat(scontrol("update", "JobId=29", "Bogus=1"))
                .isEqualTo(new Output(1, "", "Update of this parameter is not supported: Bogus=1\nRequest aborted\n"));
        assertThat(controller.requests()).hasSize(before);
    }
}
