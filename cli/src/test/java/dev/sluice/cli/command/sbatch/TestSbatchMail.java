package dev.sluice.cli.command.sbatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.testing.CommandFixture;
import dev.sluice.cli.testing.TestingInvocations.Output;
import dev.sluice.protocol.v1.JobSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code --mail-type}/{@code --mail-user}, kept as scontrol shows them. Observed with Slurm
 * 22.05 on this machine: {@code --mail-type=time_limit_80,time_limit_50,end} shows
 * {@code MailType=END,TIME_LIMIT_50,TIME_LIMIT_80}; {@code all} is
 * {@code INVALID_DEPEND,BEGIN,END,FAIL,REQUEUE,STAGE_OUT}; without {@code --mail-user} the user
 * is the submitter; {@code --mail-type=BOGUS} is {@code sbatch: error: Invalid --mail-type
 * specification}, exit 255, nothing submitted.
 */
class TestSbatchMail {
    @RegisterExtension
    final CommandFixture cli = CommandFixture.acceptingBatchJobs(7);

    private JobSpec submitted(String... args) {
        assertThat(cli.run(new SbatchCommand(), args).exitCode()).isZero();
        return cli.controller().requests().getLast().getSubmitBatchJob().getSpec();
    }

    @Test
    void typesAreKeptInSlurmsOrderAndTheUserDefaultsToTheSubmitter() {
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
    void anUnknownTypeIsRefusedAndNothingSubmitted() {
        Output o = cli.run(new SbatchCommand(), "--mail-type=BOGUS", "--wrap", "true");
        assertThat(o.exitCode()).isEqualTo(255);
        assertThat(o.err()).isEqualTo("sbatch: error: Invalid --mail-type specification\n");
        assertThat(cli.controller().requests()).isEmpty();
    }
}
