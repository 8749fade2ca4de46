package dev.sluice.ctld.control;

import static dev.sluice.ctld.Refusals.refusal;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.slurm.Licenses;
import dev.sluice.common.slurm.ReservationFlag;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.ControlHarness;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.Reservation;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Licenses= of scontrol create|update reservation, as Slurm 22.05 decides them (compat 283, 285). */
class TestReservationLicenses {
    private static final long NOW = 1_000_000;
    private static final Caller ROOT = Caller.of(0, 0, "root");
    private static final ReservationControl.Directory DIRECTORY = new ReservationControl.Directory(
            u -> Set.of("root", "alice").contains(u), a -> true, Licenses.configured("foo:4,bar"));

    private ControlHarness harness;
    private ClusterState state;

    @BeforeEach
    void cluster() {
        ClusterFixture cluster =
                ClusterFixture.aCluster().nodes(2).at(NOW - 100, NOW).build();
        state = cluster.state();
        harness = new ControlHarness(cluster.sequence());
    }

    /** Alice's reservation {@code name} of these licenses, {@code offset} seconds on, for ten minutes. */
    private static ReservationSpec.Builder licenses(String name, long offset, String licenses, String... flags) {
        return ReservationSpec.builder(name)
                .start(NOW + offset)
                .durationMinutes(10L)
                .users("alice")
                .licenses(licenses)
                .flags(List.of(flags));
    }

    private String create(ReservationSpec.Builder spec) {
        return harness.apply(state, ReservationControl.create(state, ROOT, spec.build(), DIRECTORY, NOW));
    }

    private void update(ReservationSpec.Builder spec) {
        harness.apply(state, ReservationControl.update(state, ROOT, spec.build(), DIRECTORY, NOW));
    }

    private Reservation named(String name) {
        return state.reservations().byName().get(name);
    }

    @Test
    void licensesAloneNeedAnyNodesAndThenHoldNoNode() {
        assertThat(refusal(() -> create(licenses("r", 600, "foo:2")))).isEqualTo(ErrorCode.INVALID_NODE_NAME);
        create(licenses("r", 600, "foo:2", "ANY_NODES"));
        Reservation r = named("r");
        assertThat(r.nodes()).isEmpty();
        assertThat(r.coreCount()).isZero();
        assertThat(r.partition()).isEmpty();
        assertThat(r.licenses().toString()).isEqualTo("foo:2");
        // ANY_NODES with nothing to hold.
        assertThat(refusal(() -> create(licenses("e", 600, null, "ANY_NODES"))))
                .isEqualTo(ErrorCode.RESERVATION_INVALID);
    }

    @Test
    void unknownLicensesAndMoreThanConfiguredAreInvalid() {
        assertThat(refusal(() -> create(licenses("r", 600, "nosuch:1", "ANY_NODES"))))
                .isEqualTo(ErrorCode.INVALID_LICENSES);
        assertThat(refusal(() -> create(licenses("r", 600, "foo:5", "ANY_NODES"))))
                .isEqualTo(ErrorCode.INVALID_LICENSES);
        // Checked before the nodes: an unknown one without ANY_NODES is about the licenses too.
        assertThat(refusal(() -> create(licenses("r", 600, "nosuch")))).isEqualTo(ErrorCode.INVALID_LICENSES);
        assertThat(state.reservations().byName()).isEmpty();
    }

    @Test
    void licensesBesideNodesKeepTheNodes() {
        create(licenses("n", 600, "bar").nodes("n1"));
        assertThat(named("n").nodes()).containsExactly("n1");
        assertThat(named("n").licenses().count("bar")).isEqualTo(1);
        create(licenses("c", 600, "foo:1").nodeCount(1));
        assertThat(named("c").nodes()).containsExactly("n2");
        assertThat(named("c").licenses().count("foo")).isEqualTo(1);
    }

    @Test
    void overlappingWindowsMayTogetherReserveNoMoreThanConfigured() {
        create(licenses("a", 600, "foo:2,bar", "ANY_NODES"));
        // bar: one more over the same window would be two of one.
        assertThat(refusal(() -> create(licenses("b", 900, "foo:1,bar", "ANY_NODES"))))
                .isEqualTo(ErrorCode.INVALID_LICENSES);
        assertThat(refusal(() -> create(licenses("b", 900, "foo:3", "ANY_NODES"))))
                .isEqualTo(ErrorCode.INVALID_LICENSES);
        create(licenses("b", 900, "foo:2", "ANY_NODES"));
        // One beginning as "a" ends still meets "b"; one beginning as "b" ends meets neither.
        assertThat(refusal(() -> create(licenses("later", 1200, "foo:3", "ANY_NODES"))))
                .isEqualTo(ErrorCode.INVALID_LICENSES);
        create(licenses("later", 1500, "foo:4", "ANY_NODES"));
        assertThat(named("later").licenses().count("foo")).isEqualTo(4);
    }

    @Test
    void anUpdateReplacesThemCheckedAgainstTheTotalsUnlessItGivesAWindow() {
        create(licenses("a", 0, "foo:2", "ANY_NODES"));
        create(licenses("n", 0, "foo:1").nodes("n2"));
        update(ReservationSpec.builder("a").licenses("bar,foo:1"));
        assertThat(named("a").licenses().toString()).isEqualTo("bar,foo:1");
        assertThat(named("a").nodes()).isEmpty();
        // Slurm 22.05 checks an update without StartTime= against no other reservation.
        update(ReservationSpec.builder("a").licenses("foo:4"));
        assertThat(named("a").licenses().count("foo")).isEqualTo(4);
        assertThat(refusal(() -> update(ReservationSpec.builder("a").licenses("foo:5"))))
                .isEqualTo(ErrorCode.INVALID_LICENSES);
        assertThat(refusal(() -> update(ReservationSpec.builder("a").licenses("nosuch"))))
                .isEqualTo(ErrorCode.INVALID_LICENSES);
        // Other changes keep them.
        update(ReservationSpec.builder("a").durationMinutes(20L));
        assertThat(named("a").licenses().count("foo")).isEqualTo(4);
    }

    @Test
    void anEmptyListClearsThemFromOneWithNodesOnly() {
        create(licenses("a", 0, "foo:2", "ANY_NODES"));
        create(licenses("n", 0, "foo:1").nodes("n2"));
        update(ReservationSpec.builder("n").licenses(""));
        assertThat(named("n").licenses().isEmpty()).isTrue();
        assertThat(refusal(() -> update(ReservationSpec.builder("a").licenses(""))))
                .isEqualTo(ErrorCode.INVALID_LICENSES);
        assertThat(refusal(() -> update(ReservationSpec.builder("a").flags(List.of("-ANY_NODES")))))
                .isEqualTo(ErrorCode.RESERVATION_INVALID);
        assertThat(named("a").has(ReservationFlag.ANY_NODES)).isTrue();
        assertThat(named("a").licenses().count("foo")).isEqualTo(2);
    }
}
