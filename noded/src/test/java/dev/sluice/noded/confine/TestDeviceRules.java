package dev.sluice.noded.confine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.noded.job.GresGrant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which device files a job is denied, and how: v1 rules, the v2 eBPF program's bytes. */
class TestDeviceRules {
    private static final GresDevices NODE = new GresDevices(Map.of(
            "gpu", List.of("/dev/nvidia0", "/dev/nvidia1", "/dev/nvidia2"),
            "nic", List.of("/dev/infiniband/uverbs0")));

    private static GresGrant grant(String name, Integer... indices) {
        return new GresGrant(name, "", List.of(indices), indices.length);
    }

    @Test
    void aJobIsDeniedEveryGresFileItWasNotGranted() {
        assertThat(NODE.denied(List.of(grant("gpu", 1))))
                .containsExactlyInAnyOrder("/dev/nvidia0", "/dev/nvidia2", "/dev/infiniband/uverbs0");
        assertThat(NODE.denied(List.of()))
                .containsExactlyInAnyOrder("/dev/nvidia0", "/dev/nvidia1", "/dev/nvidia2", "/dev/infiniband/uverbs0");
        assertThat(NODE.denied(List.of(grant("gpu", 0, 2), grant("nic", 0)))).containsExactly("/dev/nvidia1");
    }

    @Test
    void mpsAndShardsOpenTheirGpu() {
        assertThat(NODE.denied(List.of(grant("mps", 2), grant("nic", 0))))
                .containsExactlyInAnyOrder("/dev/nvidia0", "/dev/nvidia1");
        assertThat(NODE.denied(List.of(grant("shard", 0), grant("nic", 0))))
                .containsExactlyInAnyOrder("/dev/nvidia1", "/dev/nvidia2");
        assertThat(NODE.denied(List.of(grant("gpu", 7))))
                .as("an index the node lacks opens nothing")
                .hasSize(4);
    }

    @Test
    void deviceNumbersAreDecodedAsGlibcEncodesThem() {
        // makedev(195, 1) and makedev(511, 300000): the high major and minor bits sit above 32.
        assertThat(DeviceFile.major(0xc301L)).isEqualTo(195);
        assertThat(DeviceFile.minor(0xc301L)).isEqualTo(1);
        long big = ((511L & 0xfff) << 8) | ((511L & ~0xfffL) << 32) | (300000L & 0xff) | ((300000L & ~0xffL) << 12);
        assertThat(DeviceFile.major(big)).isEqualTo(511);
        assertThat(DeviceFile.minor(big)).isEqualTo(300000);
        assertThat(DeviceFile.of("/x", 0020666, 0x103L)).contains(new DeviceFile("/x", 'c', 1, 3));
        assertThat(DeviceFile.of("/x", 0060660, 0x801L)).contains(new DeviceFile("/x", 'b', 8, 1));
        assertThat(DeviceFile.of("/x", 0100644, 0)).as("a plain file").isEmpty();
        assertThat(new DeviceFile("/dev/nvidia1", 'c', 195, 1).rule()).isEqualTo("c 195:1 rwm");
    }

    @Test
    void devNullIsStatedAsTheCharacterDevice13() {
        assertThat(DeviceFile.stat("/dev/null")).contains(new DeviceFile("/dev/null", 'c', 1, 3));
        assertThat(DeviceFile.stat("/nonexistent/nvidia0")).isEmpty();
    }

    @Test
    void theEbpfProgramDeniesEachListedDeviceAndAllowsTheRest() {
        // Each instruction {code, dst|src<<4, off (LE16), imm (LE32)}, as in the kernel's
        // instruction-set.rst; this exact program was loaded and attached with bpf(2) on Linux
        // 6.18 and refused /dev/null (c 1:3) while /dev/zero stayed writable.
        String expected = "6112000000000000" // r2 = *(u32 *)(r1 + 0)
                + "57020000ffff0000" // r2 &= 0xffff
                + "6113040000000000" // r3 = *(u32 *)(r1 + 4)
                + "6114080000000000" // r4 = *(u32 *)(r1 + 8)
                + "5502040002000000" // if r2 != 2 (char) goto +4
                + "5503030001000000" // if r3 != 1 goto +3
                + "5504020003000000" // if r4 != 3 goto +2
                + "b700000000000000" // r0 = 0
                + "9500000000000000" // exit
                + "b700000001000000" // r0 = 1
                + "9500000000000000"; // exit
        byte[] program = BpfDeviceProgram.denying(List.of(new DeviceFile("/dev/null", 'c', 1, 3)));
        assertThat(HexFormat.of().formatHex(program)).isEqualTo(expected);
        byte[] block = BpfDeviceProgram.denying(List.of(new DeviceFile("/dev/sdb", 'b', 8, 16)));
        assertThat(HexFormat.of().formatHex(block, 32, 56))
                .isEqualTo("550204000100000055030300080000005504020010000000");
        assertThat(BpfDeviceProgram.denying(List.of())).hasSize(6 * BpfDeviceProgram.INSN_SIZE);
    }
}
