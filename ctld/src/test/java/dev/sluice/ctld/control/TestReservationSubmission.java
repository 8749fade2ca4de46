package dev.sluice.ctld.control;

import static dev.sluice.ctld.Builders.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.slurm.ReservationFlag;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.sched.Scheduler;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.Reservation;
import dev.sluice.ctld.state.StateRecord;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A job that names a reservation on an idle 3 x 4-CPU cluster: once the window has begun it must
 * fit on the reservation's nodes, as Slurm 22.05 tests it at submission (compat 200-201).
 */
class TestReservationSubmission {
    private static final long NOW = 1_000_000;

    private ClusterFixture cluster;
    private ClusterState state;

    @BeforeEach
    void cluster() {
        cluster = ClusterFixture.idle(3, 4, NOW);
        state = cluster.state();
    }

    private void reserve(String name, long start, Map<String, List<Integer>> cores, ReservationFlag... flags) {
        cluster.replay(new StateRecord.ReservationSaved(
                new Reservation(
                        name,
                        (int) cluster.sequence(),
                        start,
                        start + 600,
                        new Reservation.Holding(List.of("n1"), "", cores.isEmpty() ? 4 : 2, cores),
                        new Reservation.Access(List.of("user1000"), false, List.of()),
                        flags.length == 0 ? Set.of() : Set.of(flags)),
                NOW));
    }

    /** The refusal and the line Slurm prints before it (empty: none), or "accepted". */
    private String submit(JobRequest request) {
        JobControl.Submission s = JobControl.builder(Scheduler.SelectDefaults.DEFAULT)
                .build()
                .submission(state, request, NOW, false)
                .response();
        if (s.refusal() == null) {
            return "accepted";
        }
        assertThat(s.refusal().code()).isEqualTo(ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE);
        return s.refusal().userMessage();
    }

    @Test
    void aJobThatCouldNeverFitInAnActiveReservationIsRefused() {
        reserve("r", NOW, Map.of());
        assertThat(submit(aJob().reservation("r").nodes(2).build())).isEmpty();
        assertThat(submit(aJob().reservation("r").tasks(8).build())).isEmpty();
        assertThat(submit(aJob().reservation("r").exclude("n1").build())).isEmpty();
        assertThat(submit(aJob().reservation("r").require("n2").build())).isEqualTo("Problem using reservation");
        assertThat(submit(aJob().reservation("r").require("n[1-2]").build())).isEqualTo("Problem using reservation");
        // What fits its node as configured is taken, busy or not.
        assertThat(submit(aJob().reservation("r").tasks(4).build())).isEqualTo("accepted");
    }

    @Test
    void aRefusalUsesUpAJobId() {
        reserve("r", NOW, Map.of());
        var result = JobControl.builder(Scheduler.SelectDefaults.DEFAULT)
                .build()
                .submission(state, aJob().reservation("r").nodes(2).build(), NOW, false);
        assertThat(result.records()).isEmpty();
        assertThat(result.softChanges()).isNotEmpty();
    }

    @Test
    void aReservationThatHasNotBegunOrIsFlexChecksNothing() {
        reserve("later", NOW + 60, Map.of());
        reserve("flex", NOW, Map.of(), ReservationFlag.FLEX);
        assertThat(submit(aJob().reservation("later").nodes(2).build())).isEqualTo("accepted");
        assertThat(submit(aJob().reservation("later").require("n2").build())).isEqualTo("accepted");
        assertThat(submit(aJob().reservation("flex").nodes(2).build())).isEqualTo("accepted");
    }

    @Test
    void aPartialReservationIsTestedOnItsWholeNodes() {
        // Slurm takes a job that needs more than the reservation's cores; it waits (compat 201).
        reserve("half", NOW, Map.of("n1", List.of(0, 1)));
        assertThat(submit(aJob().reservation("half").tasks(3).build())).isEqualTo("accepted");
        assertThat(submit(aJob().reservation("half").require("n2").build())).isEqualTo("Problem using reservation");
    }

    @Test
    void aReservationThatHasEndedButIsStillKeptCannotBeUsed() {
        // Its window was [NOW - 700, NOW - 100): kept until the periodic pass forgets it (compat 255).
        reserve("over", NOW - 700, Map.of());
        assertThat(submit(aJob().reservation("over").tasks(1).build())).isEqualTo("Problem using reservation");
    }
}
