package dev.sluice.ctld.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.common.slurm.NodeFlag;
import dev.sluice.common.slurm.ReservationFlag;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A reservation's window, its repeats, and whom it lets in. */
class TestReservation {
    private static final long T0 = 1_000_000;
    private static final long DAY = 86_400;

    private static Reservation of(long start, long end, Set<ReservationFlag> flags) {
        return new Reservation(
                "r",
                1,
                start,
                end,
                Reservation.Holding.whole(List.of("n1"), "", 4),
                new Reservation.Access(List.of("alice"), false, List.of()),
                flags);
    }

    @Test
    void itsLicensesAreReservedWhileItsWindowIsOnOrAlwaysWhenFlexAndKeptFromJobsReachingIt() {
        Reservation r =
                of(T0 + 100, T0 + 200, Set.of()).withLicenses(dev.sluice.common.slurm.Licenses.parse("foo:2,bar"));
        assertThat(r.licensesReserved("foo", T0)).isZero();
        assertThat(r.licensesReserved("foo", T0 + 100)).isEqualTo(2);
        assertThat(r.licensesReserved("bar", T0 + 150)).isEqualTo(1);
        assertThat(r.licensesReserved("baz", T0 + 150)).isZero();
        assertThat(r.licensesReserved("foo", T0 + 200)).isZero();
        Reservation flex = of(T0 + 100, T0 + 200, Set.of(ReservationFlag.FLEX))
                .withLicenses(dev.sluice.common.slurm.Licenses.parse("foo:2"));
        assertThat(flex.licensesReserved("foo", T0)).isEqualTo(2);
        // A job over [T0, T0 + 100) ends as the window begins; one a second longer reaches it.
        assertThat(r.licensesHeld("foo", T0, T0 + 100)).isZero();
        assertThat(r.licensesHeld("foo", T0, T0 + 101)).isEqualTo(2);
        assertThat(r.licensesHeld("foo", T0 + 200, T0 + 300)).isZero();
    }

    @Test
    void aWindowOverlapsWhatItShares() {
        Reservation r = of(T0 + 100, T0 + 200, Set.of());
        assertThat(r.overlaps(T0, T0 + 100)).isFalse();
        assertThat(r.overlaps(T0, T0 + 101)).isTrue();
        assertThat(r.overlaps(T0 + 199, T0 + 500)).isTrue();
        assertThat(r.overlaps(T0 + 200, T0 + 500)).isFalse();
        assertThat(r.active(T0 + 99)).isFalse();
        assertThat(r.active(T0 + 100)).isTrue();
        assertThat(r.active(T0 + 200)).isFalse();
        assertThat(r.ended(T0 + 200)).isTrue();
    }

    @Test
    void aDailyReservationRollsOverOnceItsWindowEnds() {
        Reservation r = of(T0, T0 + 3600, Set.of(ReservationFlag.DAILY));
        assertThat(r.window(T0 + 10)).isEqualTo(r);
        Reservation next = r.window(T0 + 3600);
        assertThat(next.start()).isEqualTo(T0 + DAY);
        assertThat(next.end()).isEqualTo(T0 + DAY + 3600);
        assertThat(r.window(T0 + 3 * DAY + 7200).start()).isEqualTo(T0 + 4 * DAY);
        assertThat(r.ended(T0 + 10 * DAY)).isFalse();
        // Between two windows it is inactive, and a job crossing into the next one overlaps it.
        assertThat(r.active(T0 + 5000)).isFalse();
        assertThat(r.overlaps(T0 + 5000, T0 + DAY + 1)).isTrue();
        assertThat(r.overlaps(T0 + 5000, T0 + DAY)).isFalse();
    }

    @Test
    void aWeeklyReservationRepeatsAWeekLater() {
        Reservation r = of(T0, T0 + 60, Set.of(ReservationFlag.WEEKLY, ReservationFlag.MAINT));
        assertThat(r.window(T0 + 60).start()).isEqualTo(T0 + 7 * DAY);
        assertThat(r.overlaps(T0 + 61, T0 + 7 * DAY)).isFalse();
    }

    @Test
    void usersOrTheirExclusionAndAccountsDecideWhoMayUseIt() {
        Reservation users = of(T0, T0 + 60, Set.of());
        assertThat(users.permits("alice", "")).isTrue();
        assertThat(users.permits("bob", "")).isFalse();
        Reservation allBut = new Reservation(
                "r",
                1,
                T0,
                T0 + 60,
                Reservation.Holding.whole(List.of("n1"), "", 4),
                new Reservation.Access(List.of("bob"), true, List.of()),
                Set.of());
        assertThat(allBut.permits("alice", "")).isTrue();
        assertThat(allBut.permits("bob", "")).isFalse();
        Reservation both = new Reservation(
                "r",
                1,
                T0,
                T0 + 60,
                Reservation.Holding.whole(List.of("n1"), "", 4),
                new Reservation.Access(List.of("alice"), false, List.of("physics")),
                Set.of());
        assertThat(both.permits("alice", "physics")).isTrue();
        assertThat(both.permits("alice", "chem")).isFalse();
        assertThat(both.permits("bob", "physics")).isFalse();
    }

    @Test
    void aWindowMustEndAfterItStarts() {
        assertThatThrownBy(() -> of(T0, T0, Set.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aJobOnAnActiveMagneticReservationsNodesThatItLetsInRunsInIt() {
        Reservation magnet = new Reservation(
                "m",
                1,
                T0,
                T0 + 60,
                Reservation.Holding.whole(List.of("n1", "n2"), "", 8),
                new Reservation.Access(List.of("alice"), false, List.of()),
                Set.of(ReservationFlag.MAGNETIC));
        Reservations table = Reservations.NONE.with(magnet).with(of(T0, T0 + 60, Set.of()));
        assertThat(table.magnetFor("alice", "", List.of("n2"), T0 + 1)).contains(magnet);
        // Another user, a node outside it, a window not begun or over: none.
        assertThat(table.magnetFor("bob", "", List.of("n2"), T0 + 1)).isEmpty();
        assertThat(table.magnetFor("alice", "", List.of("n2", "n3"), T0 + 1)).isEmpty();
        assertThat(table.magnetFor("alice", "", List.of("n1"), T0 - 1)).isEmpty();
        assertThat(table.magnetFor("alice", "", List.of("n1"), T0 + 60)).isEmpty();
        // A plain reservation takes nobody in.
        assertThat(Reservations.NONE.with(of(T0, T0 + 60, Set.of())).magnetFor("alice", "", List.of("n1"), T0 + 1))
                .isEmpty();
    }

    @Test
    void theTableListsWhatIsNotOverInCreationOrder() {
        Reservations table = Reservations.NONE
                .with(of(T0, T0 + 60, Set.of()))
                .with(new Reservation(
                        "b",
                        2,
                        T0,
                        T0 + 10,
                        Reservation.Holding.whole(List.of("n2"), "", 4),
                        new Reservation.Access(List.of("x"), false, List.of()),
                        Set.of()));
        assertThat(table.current(T0).stream().map(Reservation::name)).containsExactly("r", "b");
        assertThat(table.current(T0 + 30).stream().map(Reservation::name)).containsExactly("r");
        assertThat(table.find("b", T0 + 30)).isEmpty();
        assertThat(table.lastId()).isEqualTo(2);
        assertThat(table.without("r").current(T0)).extracting(Reservation::name).containsExactly("b");
    }

    @Test
    void itsNodesAreReservedWhileItIsActiveAndInMaintenanceWhenMaint() {
        Reservations table = Reservations.NONE
                .with(of(T0 + 100, T0 + 200, Set.of()))
                .with(new Reservation(
                        "m",
                        2,
                        T0,
                        T0 + 50,
                        Reservation.Holding.whole(List.of("n2"), "", 4),
                        new Reservation.Access(List.of(), false, List.of()),
                        Set.of(ReservationFlag.MAINT)));
        assertThat(table.nodeFlags("n1", T0 + 99)).isEmpty();
        assertThat(table.nodeFlags("n1", T0 + 100)).containsExactly(NodeFlag.RESERVED);
        assertThat(table.nodeFlags("n1", T0 + 200)).isEmpty();
        assertThat(table.nodeFlags("n2", T0 + 10)).containsExactlyInAnyOrder(NodeFlag.RESERVED, NodeFlag.MAINT);
        assertThat(table.nodeFlags("n3", T0 + 10)).isEmpty();
    }

    @Test
    void flagsAreNamedInSlurmsOrderAndReadBackByOneParser() {
        Reservation r = of(T0, T0 + 10, Set.of(ReservationFlag.WEEKLY, ReservationFlag.MAINT, ReservationFlag.FLEX));
        assertThat(r.flagNames()).containsExactly("MAINT", "FLEX", "WEEKLY");
        assertThat(Reservation.flagsNamed(r.flagNames())).isEqualTo(r.flags());
        assertThatThrownBy(() -> Reservation.flagsNamed(List.of("MAINT", "FROM_A_NEWER_BINARY")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void coresAreReadByNodeInTheEntriesOrder() {
        record Entry(String node, List<Integer> ids) {}
        var cores = Reservation.coresOf(
                List.of(new Entry("n2", List.of(0, 1)), new Entry("n1", List.of(3))), Entry::node, Entry::ids);
        assertThat(cores.keySet()).containsExactly("n2", "n1");
        assertThat(cores.get("n1")).containsExactly(3);
    }
}
