package dev.sluice.dbd.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.common.slurm.ReservationFlag;
import dev.sluice.ctld.control.ControlResult;
import dev.sluice.ctld.server.CtldServer;
import dev.sluice.ctld.state.Reservation;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.dbd.server.DbdServer;
import dev.sluice.protocol.v1.AccountedReservation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reservation's records go from a real controller's journal through its outbox to a real dbd:
 * created, changed in place, ended by its deletion; and a controller restarted on the same
 * state (which may send its outbox again) leaves one row, not two.
 */
class ReservationAccountingEndToEndTest {
    @TempDir
    Path dir;

    /** Journals a reservation record as scontrol's create, update or delete does. */
    private static void journal(CtldServer ctld, java.util.function.LongFunction<StateRecord> record) throws Exception {
        ctld.loop()
                .submit((state, now) -> new ControlResult<>(List.of(record.apply(now)), List.of(), List.of(), null))
                .get();
    }

    private static Reservation r1(long start, long end) {
        return new Reservation(
                "r1",
                1,
                start,
                end,
                Reservation.Holding.whole(List.of("n1"), "", 4),
                new Reservation.Access(List.of("root"), false, List.of()),
                EnumSet.of(ReservationFlag.SPEC_NODES));
    }

    @Test
    void aReservationsHistoryReachesAccountingOnce() throws Exception {
        ClusterFixture f = new ClusterFixture(dir, "resv");
        DbdServer dbd = f.startDbd();
        // Begun a minute ago: its deletion ends it rather than removing it.
        long start = System.currentTimeMillis() / 1000 - 60;
        CtldServer ctld = f.startCtld();
        try {
            journal(ctld, now -> new StateRecord.ReservationSaved(r1(start, start + 300), now));
            journal(ctld, now -> new StateRecord.ReservationSaved(r1(start, start + 600), now));
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> f.reservations(start - 3600, start + 3600).stream()
                            .map(AccountedReservation::getEndTime)
                            .toList()
                            .equals(List.of(start + 600)));
        } finally {
            ctld.close();
        }
        ctld = f.startCtld();
        try {
            journal(ctld, now -> new StateRecord.ReservationDeleted("r1", now));
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> f.reservations(start - 3600, start + 3600).stream()
                            .allMatch(r -> r.getEndTime() < start + 600));
            List<AccountedReservation> rows = f.reservations(start - 3600, start + 3600);
            assertThat(rows).singleElement().satisfies(r -> {
                assertThat(r.getName()).isEqualTo("r1");
                assertThat(r.getNodes()).isEqualTo("n1");
                assertThat(r.getTres()).isEqualTo("cpu=4");
                assertThat(r.getStartTime()).isEqualTo(start);
            });
        } finally {
            ctld.close();
            dbd.close();
        }
    }
}
