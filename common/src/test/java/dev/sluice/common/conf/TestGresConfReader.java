package dev.sluice.common.conf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** gres.conf(5) rules and its examples; messages follow Slurm 22.05 where it has them. */
class TestGresConfReader {

    @Test
    void theSeedLabsFakeGpus() throws Exception {
        GresConf g = GresConfReader.parse("AutoDetect=off\nName=gpu Count=3 File=/fakegpu/gpu[0-2]\n", "gres.conf");
        assertThat(g.autoDetectFor("n1")).isEqualTo("off");
        GresConfLine l = g.forNode("n1").getFirst();
        assertThat(l.files()).containsExactly("/fakegpu/gpu0", "/fakegpu/gpu1", "/fakegpu/gpu2");
        assertThat(l.count()).isEqualTo(3);
    }

    @Test
    void manPageExampleWithMpsAndCores() throws Exception {
        GresConf g = GresConfReader.parse("""
                AutoDetect=nvml
                Name=gpu Type=gtx560 File=/dev/nvidia0 COREs=0,1
                Name=gpu Type=tesla  File=/dev/nvidia1 COREs=2,3
                Name=mps Count=100 File=/dev/nvidia0 COREs=0,1
                Name=mps Count=100  File=/dev/nvidia1 COREs=2,3
                """, "gres.conf");
        assertThat(g.autoDetect()).contains("nvml");
        assertThat(g.countFor("any", "gpu")).isEqualTo(2);
        assertThat(g.countFor("any", "mps")).isEqualTo(200);
        assertThat(g.lines().get(1).affinity().cores()).containsExactly(2, 3);
        assertThat(g.lines().get(1).type()).contains("tesla");
    }

    @Test
    void perNodeLinesAndAutoDetect() throws Exception {
        GresConf g = GresConfReader.parse("""
                NodeName=tux[0-7] AutoDetect=nvml
                NodeName=tux[12-15] Name=gpu File=/dev/nvidia[0-3]
                NodeName=tux[12-13] Name=bandwidth Count=4G Flags=CountOnly
                """, "gres.conf");
        assertThat(g.autoDetectFor("tux3")).isEqualTo("nvml");
        assertThat(g.autoDetectFor("tux12")).isEqualTo("off");
        assertThat(g.forNode("tux13")).hasSize(2);
        assertThat(g.forNode("tux14")).hasSize(1);
        assertThat(g.forNode("tux1")).isEmpty();
        assertThat(g.countFor("tux12", "bandwidth")).isEqualTo(4L << 30);
        assertThat(g.forNode("tux12").get(1).options().hasFlag("countonly")).isTrue();
    }

    @Test
    void consistencyChecks() {
        assertThatThrownBy(() -> GresConfReader.parse("Name=gpu File=/dev/nvidia[0-1] Count=3\n", "gres.conf"))
                .hasMessage(
                        "gres.conf:1: Invalid GRES record for gpu, count does not match File value (2 files, Count=3)");
        assertThatThrownBy(() -> GresConfReader.parse("Name=gpu File=/dev/a MultipleFiles=/dev/b,/dev/c\n", "g"))
                .hasMessageContaining("File and MultipleFiles options are mutually exclusive");
        assertThatThrownBy(() -> GresConfReader.parse("Name=gpu MultipleFiles=/dev/b\n", "g"))
                .hasMessageContaining("MultipleFiles does not contain multiple files");
        assertThatThrownBy(() -> GresConfReader.parse("Name=gpu Count=3Q\n", "g"))
                .hasMessage("g:1: Invalid GRES record for gpu, invalid count 3Q");
        assertThatThrownBy(() -> GresConfReader.parse("Name=gpu Cores=a-b\n", "g"))
                .hasMessageContaining("Cores=a-b");
        assertThatThrownBy(() -> GresConfReader.parse("Name=gpu Fiel=/dev/x\n", "g"))
                .hasMessage("g:1: unknown key \"Fiel\" (did you mean \"File\"?)");
        assertThatThrownBy(() -> GresConfReader.parse("AutoDetect=magic\n", "g"))
                .hasMessageContaining("Invalid AutoDetect");
    }

    @Test
    void sharedGresMayCountMoreThanFiles() throws Exception {
        GresConf g = GresConfReader.parse("Name=shard Count=8 File=/dev/nvidia[0-1]\n", "gres.conf");
        assertThat(g.lines().getFirst().count()).isEqualTo(8);
    }

    @Test
    void linesStartWithNameOrNodeName() {
        assertThatThrownBy(() -> GresConfReader.parse("Count=2 Name=gpu\n", "g"))
                .hasMessageContaining("starts with NodeName= or Name=");
        assertThatThrownBy(() -> GresConfReader.parse("AutoDetect=nvml Name=gpu\n", "g"))
                .hasMessageContaining("starts with NodeName= or Name=");
    }
}
