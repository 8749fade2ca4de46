package dev.sluice.ctld.control;

import static dev.sluice.ctld.Builders.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.slurm.Licenses;
import dev.sluice.ctld.Builders;
import dev.sluice.ctld.sched.Scheduler;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.wire.WireMapper;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Submission refuses licenses slurm.conf does not configure, as Slurm's slurmctld does. */
class TestSubmitLicenses {
    private static final long NOW = 1_000_000;
    private final ClusterState state = Builders.anIdleCluster(List.of("n1"), 4, 1000, NOW);

    private static JobControl control(String configured) {
        return JobControl.builder(
                        new Scheduler.SelectDefaults(false, 0, Set.of(), false, Licenses.configured(configured)))
                .build();
    }

    private static ErrorCode refusal(JobControl jobs, ClusterState state, String licenses) {
        var answer = jobs.submission(state, aJob().licenses(licenses).build(), NOW, false)
                .response();
        return answer.refusal() == null ? null : answer.refusal().code();
    }

    @Test
    void configuredLicensesWithinTheirTotalsAreAccepted() {
        JobControl jobs = control("foo:4,bar");
        assertThat(refusal(jobs, state, "foo:4,bar")).isNull();
        assertThat(refusal(jobs, state, "bar:1")).isNull();
    }

    @Test
    void anUnknownLicenseOrMoreThanTheTotalIsAnInvalidLicenseSpecification() {
        JobControl jobs = control("foo:4,bar");
        assertThat(refusal(jobs, state, "baz")).isEqualTo(ErrorCode.INVALID_LICENSES);
        assertThat(refusal(jobs, state, "foo:5")).isEqualTo(ErrorCode.INVALID_LICENSES);
        assertThat(refusal(control(""), state, "foo")).isEqualTo(ErrorCode.INVALID_LICENSES);
        assertThat(ErrorCode.INVALID_LICENSES.text()).isEqualTo("Invalid license specification");
    }

    /** Slurm 22.05 rereads Licenses= at scontrol reconfigure (compat scenarios 171-175). */
    @Test
    void reconfiguredLicensesAreWhatSubmissionChecksFromThenOn() {
        JobControl jobs = control("");
        assertThat(refusal(jobs, state, "foo:2")).isEqualTo(ErrorCode.INVALID_LICENSES);
        jobs.useLicenses(Licenses.configured("foo:4,bar"));
        assertThat(refusal(jobs, state, "foo:2")).isNull();
        // A name twice counts twice: foo,foo is foo:2, within the total.
        assertThat(refusal(jobs, state, "foo,foo")).isNull();
        jobs.useLicenses(Licenses.configured("bar"));
        assertThat(refusal(jobs, state, "foo:2")).isEqualTo(ErrorCode.INVALID_LICENSES);
    }

    @Test
    void theRequestTravelsAndIsJournaledWithEveryCountWrittenOut() {
        var request = aJob().licenses("foo:2,bar").build();
        var wire = WireMapper.toWire(request);
        assertThat(wire.getLicenses()).isEqualTo("foo:2,bar");
        assertThat(WireMapper.toDomain(wire).licenses()).isEqualTo(request.licenses());
    }

    @Test
    void aListThatDoesNotParseIsRefusedOnArrival() {
        var wire = WireMapper.toWire(aJob().build()).toBuilder()
                .setLicenses("foo:x")
                .build();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> WireMapper.toDomain(wire))
                .isInstanceOfSatisfying(
                        dev.sluice.common.error.SlurmException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_LICENSES));
    }
}
