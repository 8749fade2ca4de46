package dev.sluice.cli.command.scontrol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.testing.Fixtures;
import dev.sluice.cli.testing.TestingInvocations;
import dev.sluice.cli.view.JobView;
import dev.sluice.protocol.v1.JobInfo;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Slurm 22.05's {@code scontrol show job} prints {@code MailUser=U MailType=T} on the line after
 * {@code Power=} (and after {@code TresPerNode=} when the job has GRES), only when a mail type is set.
 */
class TestJobShowMail {
    private static List<String> show(JobInfo job) {
        return JobShow.lines(new JobView(
                job, Fixtures.SQUEUE_NOW, Clock.fixed(Fixtures.SQUEUE_NOW, ZoneOffset.UTC), TestingInvocations.USERS));
    }

    @Test
    void mailLineFollowsPowerWhenAMailTypeIsSet() {
        JobInfo plain = Fixtures.pending3();
        JobInfo mailed = plain.toBuilder()
                .setSpec(plain.getSpec().toBuilder().setMailType("END,FAIL").setMailUser("root"))
                .build();
        List<String> without = show(plain);
        List<String> with = show(mailed);
        assertThat(without).noneMatch(l -> l.startsWith("MailUser="));
        int power = with.indexOf("Power=");
        assertThat(with.get(power + 1)).isEqualTo("MailUser=root MailType=END,FAIL");
    }
}
