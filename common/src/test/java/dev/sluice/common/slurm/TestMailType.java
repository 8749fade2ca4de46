package dev.sluice.common.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** sbatch(1) --mail-type, shown back in Slurm 22.05's fixed order (compat: scontrol show job MailType=). */
class TestMailType {

    @Test
    void eventsAreShownInSlurmsOrderWhateverOrderTheyCameIn() {
        assertThat(MailType.text(MailType.parseList("time_limit_80,time_limit_50,end")))
                .isEqualTo("END,TIME_LIMIT_50,TIME_LIMIT_80");
        assertThat(MailType.text(MailType.parseList(" Fail , begin"))).isEqualTo("BEGIN,FAIL");
    }

    @Test
    void allIsTheUsualEventsAndNoneAddsNothing() {
        assertThat(MailType.text(MailType.parseList("all,time_limit")))
                .isEqualTo("INVALID_DEPEND,BEGIN,END,FAIL,REQUEUE,STAGE_OUT,TIME_LIMIT");
        assertThat(MailType.parseList("NONE")).isEmpty();
        assertThat(MailType.text(MailType.parseList("none,end"))).isEqualTo("END");
    }

    @Test
    void anUnknownOrEmptyNameIsRefused() {
        assertThatThrownBy(() -> MailType.parseList("end,sometimes"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Invalid --mail-type specification");
        assertThatThrownBy(() -> MailType.parseList("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MailType.parseList("end,")).isInstanceOf(IllegalArgumentException.class);
    }
}
