package dev.sluice.common.site;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TestSluiceConf {
    @Test
    void metricsPortsAreReadAndOffWhenAbsent() {
        SluiceConf conf = SluiceConf.parse("SlurmctldMetricsPort=9817\n# nodes too\nslurmdmetricsport = 9818\n", "f");
        assertThat(conf.slurmctldMetricsPort()).hasValue(9817);
        assertThat(conf.slurmdMetricsPort()).hasValue(9818);
        assertThat(SluiceConf.empty().slurmctldMetricsPort()).isEmpty();
    }

    @Test
    void aValueThatIsNoPortIsRefusedNamingFileAndLine() {
        assertThatThrownBy(() -> SluiceConf.parse("\nSlurmctldMetricsPort=http\n", "/etc/slurm/sluice.conf"))
                .hasMessage("/etc/slurm/sluice.conf:2: SlurmctldMetricsPort is not a port number: \"http\"");
        assertThatThrownBy(() -> SluiceConf.parse("SlurmdMetricsPort=70000\n", "f"))
                .hasMessageContaining("not a port number");
    }

    @Test
    void theCommandSocketIsAnAbsolutePath() {
        assertThat(SluiceConf.parse("CommandSocket=/run/sluice/slurmctld.socket\n", "f")
                        .commandSocket())
                .hasValue("/run/sluice/slurmctld.socket");
        assertThatThrownBy(() -> SluiceConf.parse("CommandSocket=run/x.sock\n", "f"))
                .hasMessage("f:1: CommandSocket must be an absolute path: \"run/x.sock\"");
    }
}
