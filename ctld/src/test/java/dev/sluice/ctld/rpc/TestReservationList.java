package dev.sluice.ctld.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.ReservationFlag;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.state.Reservation;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.protocol.v1.ReservationInfo;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What {@code scontrol show reservation} and {@code sinfo -T} are sent: a repeating reservation
 * as the controller last saved it, so the window that just ended until the periodic pass moves it
 * on, as Slurm 22.05 shows it (compat 222).
 */
class TestReservationList {
    private static final long NOW = 1_796_500_000L;

    @Test
    void aRepeatingReservationIsListedInItsSavedWindowEvenOnceItHasEnded() {
        ClusterFixture cluster = ClusterFixture.idle(1, 4, NOW);
        cluster.replay(new StateRecord.ReservationSaved(
                new Reservation(
                        "r",
                        1,
                        NOW - 20,
                        NOW - 10,
                        Reservation.Holding.whole(List.of("n1"), "", 4),
                        new Reservation.Access(List.of("root"), false, List.of()),
                        Set.of(ReservationFlag.HOURLY)),
                NOW - 30));
        List<ReservationInfo> listed =
                ReservationAnswers.list(cluster.state().image(), NOW, null).getReservationsList();
        assertThat(listed).extracting(ReservationInfo::getStartTime).containsExactly(NOW - 20);
        assertThat(listed).extracting(ReservationInfo::getEndTime).containsExactly(NOW - 10);
    }
}
