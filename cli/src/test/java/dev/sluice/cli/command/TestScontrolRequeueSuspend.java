package dev.sluice.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.command.scontrol.ScontrolCommand;
import dev.sluice.cli.testing.CommandFixture;
import dev.sluice.cli.testing.TestingInvocations.Output;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.JobAction;
import dev.sluice.protocol.v1.SignalJobResponse;
import dev.sluice.protocol.v1.SlurmError;
import dev.sluice.protocol.v1.UpdateJobRequest;
import dev.sluice.protocol.v1.UpdateJobResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code scontrol requeue|requeuehold|suspend|resume}: the outputs and exit statuses below are
 * those of real Slurm 22.05 (run side by side on the same machine, 2026-11-29) for jobs in the
 * same situations: 16 pending, 17 submitted with {@code --no-requeue}, 18 running but not
 * suspended, 99 unknown; the controller's answers are faked here, its decisions are tested in
 * ctld (TestJobRunControl).
 */
class TestScontrolRequeueSuspend {
    @RegisterExtension
    final CommandFixture cli = new CommandFixture(req -> {
        UpdateJobRequest u = req.getUpdateJob();
        UpdateJobResponse.Builder r = UpdateJobResponse.newBuilder();
        for (String id : u.getJobIdsList()) {
            SignalJobResponse.Result.Builder one =
                    SignalJobResponse.Result.newBuilder().setJobId(id);
            boolean runAction =
                    u.getAction() == JobAction.JOB_ACTION_SUSPEND || u.getAction() == JobAction.JOB_ACTION_RESUME;
            SlurmError error = switch (id) {
                case "16" -> error(ErrorCode.JOB_PENDING, ErrorCode.JOB_PENDING.text());
                case "17" -> error(ErrorCode.DISABLED, ErrorCode.DISABLED.text());
                case "18" ->
                    u.getAction() == JobAction.JOB_ACTION_RESUME
                            ? error(ErrorCode.JOB_NOT_SUSPENDED, ErrorCode.JOB_NOT_SUSPENDED.text())
                            : null;
                case "99" ->
                    runAction
                            ? error(ErrorCode.UNEXPECTED, "Unexpected message received")
                            : error(ErrorCode.INVALID_JOB_ID, ErrorCode.INVALID_JOB_ID.text());
                default -> null;
            };
            if (error != null) {
                one.setError(error);
            }
            r.addResults(one);
        }
        return ClientResponse.newBuilder().setUpdateJob(r).build();
    });

    private static SlurmError error(ErrorCode code, String text) {
        return SlurmError.newBuilder().setCode(code.number()).setMessage(text).build();
    }

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
    void requeue() {
        assertThat(scontrol("requeue", "18")).isEqualTo(new Output(0, "", ""));
        assertThat(last().getAction()).isEqualTo(JobAction.JOB_ACTION_REQUEUE);
        assertThat(last().getJobIdsList()).containsExactly("18");
        assertThat(scontrol("requeue", "16")).isEqualTo(new Output(1, "", "Job is pending execution for job 16\n"));
        assertThat(scontrol("requeue", "17"))
                .isEqualTo(new Output(1, "", "Requested operation is presently disabled for job 17\n"));
        assertThat(scontrol("requeue", "99")).isEqualTo(new Output(1, "", "Invalid job id specified for job 99\n"));
        assertThat(scontrol("requeue", "17,16"))
                .isEqualTo(new Output(
                        1,
                        "",
                        "Requested operation is presently disabled for job 17\nJob is pending execution for job 16\n"));
        assertThat(scontrol("REQUEUEHOLD", "18")).isEqualTo(new Output(0, "", ""));
        assertThat(last().getAction()).isEqualTo(JobAction.JOB_ACTION_REQUEUEHOLD);
    }

    @Test
    void suspendAndResume() {
        assertThat(scontrol("suspend", "18")).isEqualTo(new Output(0, "", ""));
        assertThat(last().getAction()).isEqualTo(JobAction.JOB_ACTION_SUSPEND);
        assertThat(scontrol("resume", "18")).isEqualTo(new Output(1, "", "Job is not suspended for job 18\n"));
        assertThat(last().getAction()).isEqualTo(JobAction.JOB_ACTION_RESUME);
        assertThat(scontrol("suspend", "99")).isEqualTo(new Output(1, "", "Unexpected message received for job 99\n"));
        assertThat(scontrol("suspend", "18,16")).isEqualTo(new Output(1, "", "Job is pending execution for job 16\n"));
        assertThat(last().getJobIdsList()).containsExactly("18", "16");
    }

    @Test
    void missingJobList() {
        int before = cli.controller().requests().size();
        assertThat(scontrol("requeue")).isEqualTo(new Output(1, "", "too few arguments for keyword:requeue\n"));
        assertThat(scontrol("suspend")).isEqualTo(new Output(1, "", "too few arguments for keyword:suspend\n"));
        assertThat(cli.controller().requests()).hasSize(before);
    }
}
