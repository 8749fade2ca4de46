package dev.sluice.cli.view;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.testing.Fixtures;
import dev.sluice.cli.testing.TestingInvocations;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.JobState;
import java.time.Clock;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/**
 * A pending job the controller held because its reservation was forgotten shows Slurm's
 * RESV_DEL_HOLD instead of PENDING (compat 255); a user's or operator's hold does not.
 */
class TestResvDelHold {
    private static JobView view(JobState state, String hold) {
        JobInfo j = Fixtures.job(7, Fixtures.wrapSpec(), state)
                .setHold(hold)
                .setReasonDetail(hold.equals("RESV_DEL") ? "Reservation r1 was deleted" : "")
                .build();
        return new JobView(
                j, Fixtures.SQUEUE_NOW, Clock.fixed(Fixtures.SQUEUE_NOW, ZoneOffset.UTC), TestingInvocations.USERS);
    }

    @Test
    void aJobHeldForADeletedReservationShowsTheFlagAndTheDescription() {
        JobView v = view(JobState.PENDING, "RESV_DEL");
        assertThat(v.stateName()).isEqualTo("RESV_DEL_HOLD");
        assertThat(v.stateCompact()).isEqualTo("RD");
        assertThat(v.described()).isEqualTo("Reservation r1 was deleted");
    }

    @Test
    void otherHoldsStayPending() {
        assertThat(view(JobState.PENDING, "USER").stateName()).isEqualTo("PENDING");
        assertThat(view(JobState.PENDING, "").stateCompact()).isEqualTo("PD");
        assertThat(view(JobState.RUNNING, "").stateName()).isEqualTo("RUNNING");
    }
}
