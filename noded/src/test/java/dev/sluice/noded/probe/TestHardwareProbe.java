package dev.sluice.noded.probe;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TestHardwareProbe {
    private static String cpu(int processor, int physical, int core) {
        return "processor\t: " + processor + "\nphysical id\t: " + physical + "\ncore id\t\t: " + core + "\n\n";
    }

    @Test
    void socketsCoresAndThreadsFromCpuinfo() {
        StringBuilder info = new StringBuilder();
        int p = 0;
        for (int socket = 0; socket < 2; socket++) {
            for (int core = 0; core < 4; core++) {
                info.append(cpu(p++, socket, core)).append(cpu(p++, socket, core));
            }
        }
        HardwareProbe.Detected d = HardwareProbe.parse(info.toString(), "MemTotal:       65839504 kB\n", 1);
        assertThat(d).isEqualTo(new HardwareProbe.Detected(16, 1, 2, 4, 2, 64296));
    }

    @Test
    void slurmdDashCFormat() {
        String text = HardwareProbe.describe("n1", new HardwareProbe.Detected(8, 1, 1, 4, 2, 7800), 93784);
        assertThat(text)
                .isEqualTo("NodeName=n1 CPUs=8 Boards=1 SocketsPerBoard=1 CoresPerSocket=4 ThreadsPerCore=2"
                        + " RealMemory=7800\nUpTime=1-02:03:04");
    }

    @Test
    void missingCpuinfoFallsBack() {
        assertThat(HardwareProbe.parse("", "", 3).cpus()).isEqualTo(3);
    }
}
