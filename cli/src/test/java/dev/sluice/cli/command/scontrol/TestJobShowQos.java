package dev.sluice.cli.command.scontrol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.testing.Fixtures;
import dev.sluice.cli.testing.TestingInvocations;
import dev.sluice.cli.view.JobView;
import dev.sluice.protocol.v1.JobInfo;
import java.time.Clock;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/**
 * {@code QOS=} as Slurm 22.05 prints it: the name; {@code (null)} without accounting (the golden
 * cluster: {@code Account=(null) QOS=(null)}); empty for a job under an association whose
 * {@code --qos} named none that exists (compat 089: {@code Account=root}, {@code QOS=}).
 */
class TestJobShowQos {
    private static String priorityLine(String account, String qos) {
        JobInfo plain = Fixtures.pending3();
        JobInfo job = plain.toBuilder()
                .setSpec(plain.getSpec().toBuilder().setAccount(account).setQos(qos))
                .build();
        return JobShow.lines(new JobView(
                        job,
                        Fixtures.SQUEUE_NOW,
                        Clock.fixed(Fixtures.SQUEUE_NOW, ZoneOffset.UTC),
                        TestingInvocations.USERS))
                .get(2);
    }

    @Test
    void qosAsSlurmShowsIt() {
        assertThat(priorityLine("root", "normal")).endsWith(" Account=root QOS=normal");
        assertThat(priorityLine("", "")).endsWith(" Account=(null) QOS=(null)");
        assertThat(priorityLine("root", "")).endsWith(" Account=root QOS=");
    }
}
