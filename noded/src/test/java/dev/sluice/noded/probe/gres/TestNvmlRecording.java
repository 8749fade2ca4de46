package dev.sluice.noded.probe.gres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The recorded-NVML form: parsing, and writing what parses back the same. */
class TestNvmlRecording {
    static String recording(String name) throws IOException {
        try (InputStream in = TestNvmlRecording.class.getResourceAsStream("/nvml/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void parsesARecordedMachine() throws IOException {
        List<NvmlDevice> devices = NvmlRecording.parse(recording("a100x4-mig.txt"));
        assertThat(devices).hasSize(4);
        NvmlDevice first = devices.get(0);
        assertThat(first.name()).isEqualTo("NVIDIA A100-SXM4-40GB");
        assertThat(first.uuid()).isEqualTo("GPU-6f2b3a0e-0000-0000-0000-000000000000");
        assertThat(first.pciBusId()).isEqualTo("00000000:07:00.0");
        assertThat(first.deviceFile()).isEqualTo("/dev/nvidia0");
        assertThat(first.cpuAffinity()).hasSize(32).startsWith(0, 1).endsWith(46, 47);
        assertThat(first.nvlinkPeers()).hasSize(12).containsOnly("00000000:0F:00.0");
        assertThat(first.migs()).isEmpty();
        NvmlDevice mig = devices.get(3);
        assertThat(mig.migs())
                .extracting(NvmlDevice.Mig::name)
                .containsExactly("NVIDIA A100-SXM4-40GB MIG 3g.20gb", "NVIDIA A100-SXM4-40GB MIG 3g.20gb");
    }

    @Test
    void whatIsWrittenParsesBackEqual() throws IOException {
        List<NvmlDevice> devices = NvmlRecording.parse(recording("a100x4-mig.txt"));
        assertThat(NvmlRecording.parse(NvmlRecording.format(devices))).isEqualTo(devices);
    }

    @Test
    void aBrokenLineIsNamed() {
        assertThatThrownBy(() -> NvmlRecording.parse("gpu\tindex=0\tname=x\n")).hasMessage("line 1: missing uuid");
        assertThatThrownBy(() -> NvmlRecording.parse("# c\nmig\tgpu=7\tindex=0\tname=m\tuuid=u\n"))
                .hasMessage("line 2: mig of unknown gpu 7");
        assertThatThrownBy(() -> NvmlRecording.parse("tpu\tindex=0\n")).hasMessage("line 1: unknown record tpu");
    }

    @Test
    void cpuMasks() {
        assertThat(NvmlRecording.cpusOfMask(new long[] {0b1011L, 1L})).containsExactly(0, 1, 3, 64);
    }
}
