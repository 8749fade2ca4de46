package dev.sluice.dbd.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ReservationUsageTest {
    private static final TresCounts FOUR_CPUS = new TresCounts(Map.of("cpu", 4L, "node", 1L));

    @Test
    void aJobCountsOnlyWithinTheWindowAndARunningOneUpToNow() {
        ReservationUsage u = new ReservationUsage(100, 200, 150);
        u.add(50, 120, FOUR_CPUS); // 20 s inside
        u.add(190, 250, FOUR_CPUS); // ended past the window: 10 s
        u.add(140, 0, FOUR_CPUS); // running: 10 s to now
        assertThat(u.allocSecs()).containsEntry("cpu", 4L * 40).containsEntry("node", 40L);
    }

    @Test
    void jobsOutsideTheWindowOrNotStartedAddNothing() {
        ReservationUsage u = new ReservationUsage(100, 200, 500);
        u.add(0, 0, FOUR_CPUS);
        u.add(10, 100, FOUR_CPUS);
        u.add(200, 300, FOUR_CPUS);
        assertThat(u.allocSecs()).isEmpty();
    }
}
