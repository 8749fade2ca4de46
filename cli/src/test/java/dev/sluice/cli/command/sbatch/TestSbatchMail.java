package dev.sluice.cli.command.sbatch;

import static dev.sluice.cli.testing.TestingInvocations.confFor;
import static dev.sluice.cli.testing.TestingInvocations.invocation;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.testing.FakeController;
import dev.sluice.cli.testing.TestingInvocations;
import dev.sluice.cli.testing.TestingInvocations.Output;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.SubmitBatchJobResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --mail-type}/{@code --mail-user}, kept as scontrol shows them. Observed with Slurm
 * 22.05 on this machine: {@code --mail-type=time_limit_80,time_limit_50,end} shows
 * {@code MailType=END,TIME_LIMIT_50,TIME_LIMIT_80}; {@code all} is
 * {@code INVALID_DEPEND,BEGIN,END,FAIL,REQUEUE,STAGE_OUT}; without {@code --mail-user} the user
 * is the submitter; {@code --mail-type=BOGUS} is {@code sbatch: error: Invalid --mail-type
 * specification}, exit 255, nothing submitted.
 */
class TestSbatchMail {
    @TempDir
    Path dir;

    private Output sbatch(FakeController ctld, String... args) throws Exception {
        Map<String, String> env = confFor(dir, ctld.port());
        return TestingInvocations.run(new SbatchCommand(), invocation(dir, env, "", args));
    }

    private JobSpec submitted(String... args) throws Exception {
        try (FakeController ctld = new FakeController(r -> ClientResponse.newBuilder()
                .setSubmitBatchJob(SubmitBatchJobResponse.newBuilder().setJobId(7))
                .build())) {
            assertThat(sbatch(ctld, args).exitCode()).isZero();
            return ctld.requests().getLast().getSubmitBatchJob().getSpec();
        }
    }

    @Test
    void typesAreKeptInSlurmsOrderAndTheUserDefaultsToTheSubmitter() throws Exception {
        JobSpec spec = submitted("--mail-type=time_limit_80,time_limit_50,end", "--wrap", "true");
        assertThat(spec.getMailType()).isEqualTo("END,TIME_LIMIT_50,TIME_LIMIT_80");
        assertThat(spec.getMailUser()).isEqualTo("root");
        JobSpec all = submitted("--mail-type=all", "--mail-user=bob", "--wrap", "true");
        assertThat(all.getMailType()).isEqualTo("INVALID_DEPEND,BEGIN,END,FAIL,REQUEUE,STAGE_OUT");
        assertThat(all.getMailUser()).isEqualTo("bob");
        JobSpec none = submitted("--mail-user=bob", "--wrap", "true");
        assertThat(none.getMailType()).isEmpty();
    }

    @Test
    void anUnknownTypeIsRefusedAndNothingSubmitted() throws Exception {
        try (FakeController ctld = new FakeController(r -> ClientResponse.getDefaultInstance())) {
            Output o = sbatch(ctld, "--mail-type=BOGUS", "--wrap", "true");
            assertThat(o.exitCode()).isEqualTo(255);
            assertThat(o.err()).isEqualTo("sbatch: error: Invalid --mail-type specification\n");
            assertThat(ctld.requests()).isEmpty();
        }
    }
}
