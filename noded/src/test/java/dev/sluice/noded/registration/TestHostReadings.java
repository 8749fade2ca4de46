package dev.sluice.noded.registration;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The host's load and free memory as a heartbeat reports them (scontrol's CPULoad, FreeMem). */
class TestHostReadings {
    @Test
    void theOneMinuteLoadAverageIsTheFirstFieldOfLoadavg() {
        assertThat(HostReadings.loadAverage("1.52 0.98 0.40 3/412 12345\n")).hasValue(1.52);
        assertThat(HostReadings.loadAverage("")).isEmpty();
        assertThat(HostReadings.loadAverage("garbage")).isEmpty();
    }

    @Test
    void freeMemoryIsMemFreeInMegabytes() {
        String meminfo = "MemTotal:       24634152 kB\nMemFree:        17987012 kB\nMemAvailable:   21000000 kB\n";
        assertThat(HostReadings.freeMemoryMb(meminfo)).hasValue(17987012L / 1024);
        assertThat(HostReadings.freeMemoryMb("MemTotal: 1 kB\n")).isEmpty();
    }

    @Test
    void thisHostHasSomeFreeMemory() {
        // Linux always has /proc/meminfo: a reading of 0 here would mean the parse is broken.
        assertThat(HostReadings.freeMemoryMb()).isPositive();
    }
}
