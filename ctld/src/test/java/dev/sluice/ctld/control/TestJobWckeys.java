package dev.sluice.ctld.control;

import static dev.sluice.ctld.Builders.aJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.ControlHarness;
import dev.sluice.ctld.limits.AccountingPolicy;
import dev.sluice.ctld.limits.Enforcement;
import dev.sluice.ctld.limits.PolicyView;
import dev.sluice.ctld.limits.UserWckeys;
import dev.sluice.ctld.sched.Scheduler;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.JobChange;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.JobWckey;
import dev.sluice.ctld.state.StateRecord;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A job's wckey as Slurm 22.05 settles it (compat 218, 220, 221): kept as asked, the user's
 * default marked {@code *} when none was asked, nothing when wckeys are not tracked; refused
 * under AccountingStorageEnforce=wckeys when the user does not hold it or has no default.
 */
class TestJobWckeys {
    private static final Caller OWNER = Caller.of(1000, 1000, "user1000");
    /** user1000 holds wa (its default) and wb; user1001 holds none. */
    private static final AccountingPolicy POLICY = new AccountingPolicy(
            1,
            List.of(),
            Map.of(),
            Map.of(),
            UserWckeys.of(List.of(
                    new UserWckeys.Held("user1000", "wa", true), new UserWckeys.Held("user1000", "wb", false))));

    private final ControlHarness harness = new ControlHarness();
    private final ClusterState state = ClusterFixture.aCluster().firstJobId(7).configured();

    private static PolicyView tracked() {
        return new PolicyView(Enforcement.NONE, POLICY, true);
    }

    private static PolicyView enforced() {
        // AccountingStorageEnforce=wckeys alone would also ask for associations; this cluster has
        // none, so the wckey check is tested on its own.
        return new PolicyView(new Enforcement(false, false, false, true), POLICY, false);
    }

    private int submit(PolicyView limits, JobRequest request) {
        ControlResult<Integer> r = JobControl.builder(Scheduler.SelectDefaults.DEFAULT)
                .limits(limits)
                .build()
                .submit(state, request, 100);
        harness.replayRecords(state, r);
        return r.response();
    }

    private static JobRequest asking(String wckey, int uid) {
        return aJob().uid(uid).build().toBuilder().wckey(JobWckey.asked(wckey)).build();
    }

    private String wckeyOf(int id) {
        return state.job(id).request().wckey().text();
    }

    @Test
    void aTrackedJobKeepsTheWckeyItAskedForEvenOneItsUserLacks() {
        assertThat(wckeyOf(submit(tracked(), asking("wb", 1000)))).isEqualTo("wb");
        assertThat(wckeyOf(submit(tracked(), asking("wx", 1000)))).isEqualTo("wx");
    }

    @Test
    void withoutOneItTakesItsUsersDefaultMarkedOrTheBareMark() {
        int mine = submit(tracked(), asking("", 1000));
        assertThat(state.job(mine).request().wckey()).isEqualTo(JobWckey.userDefault("wa"));
        assertThat(wckeyOf(mine)).isEqualTo("*wa");
        assertThat(wckeyOf(submit(tracked(), asking("", 1001)))).isEqualTo("*");
    }

    @Test
    void untrackedWckeysAreDropped() {
        int id = submit(new PolicyView(Enforcement.NONE, POLICY, false), asking("wb", 1000));
        assertThat(state.job(id).request().wckey().isNone()).isTrue();
        assertThat(wckeyOf(id)).isEmpty();
    }

    @Test
    void enforcementRefusesAWckeyNotHeldAndNoneWithoutADefault() {
        assertThat(enforced().tracksWckeys()).isTrue();
        assertThat(wckeyOf(submit(enforced(), asking("wb", 1000)))).isEqualTo("wb");
        assertThat(wckeyOf(submit(enforced(), asking("", 1000)))).isEqualTo("*wa");
        int next = state.nextJobId();
        for (JobRequest refused : List.of(asking("wx", 1000), asking("", 1001), asking("wa", 1001))) {
            assertThatThrownBy(() -> submit(enforced(), refused))
                    .isInstanceOf(SlurmException.class)
                    .satisfies(e -> assertThat(((SlurmException) e).code()).isEqualTo(ErrorCode.INVALID_WCKEY))
                    .hasMessage("Invalid wckey specification");
        }
        // Refused with the account and QOS, before the job has an id.
        assertThat(state.nextJobId()).isEqualTo(next);
    }

    @Test
    void wckeysEnforcedImplyAssociationsAndTracking() {
        Enforcement e = Enforcement.parse(List.of("wckeys"));
        assertThat(e.associations()).isTrue();
        assertThat(e.wckeys()).isTrue();
        assertThat(new PolicyView(e, POLICY, false).tracksWckeys()).isTrue();
        assertThat(Enforcement.parse(List.of("limits")).wckeys()).isFalse();
    }

    @Test
    void aPendingJobsWckeyIsChangedAsAtSubmitAndARunningOnesIsNot() {
        int id = submit(
                enforced(),
                aJob().uid(1000).hold().build().toBuilder()
                        .wckey(JobWckey.asked("wa"))
                        .build());
        harness.replayRecords(
                state,
                JobUpdate.update(
                        state,
                        OWNER,
                        Integer.toString(id),
                        List.of(new JobChange.WckeyName(JobWckey.asked("wb"))),
                        200,
                        enforced()));
        assertThat(wckeyOf(id)).isEqualTo("wb");
        assertThatThrownBy(() -> JobUpdate.update(
                        state,
                        OWNER,
                        Integer.toString(id),
                        List.of(new JobChange.WckeyName(JobWckey.asked("wx"))),
                        210,
                        enforced()))
                .isInstanceOf(SlurmException.class)
                .hasMessage("Invalid wckey specification");
        assertThat(wckeyOf(id)).isEqualTo("wb");

        int running = submit(tracked(), asking("wa", 1000));
        harness.replay(
                state,
                new StateRecord.JobStarted(
                        running, new Allocation(List.of(Allocation.NodeShare.of("n1", 1, 0, 1))), "p", 10, 220));
        assertThatThrownBy(() -> JobUpdate.update(
                        state,
                        OWNER,
                        Integer.toString(running),
                        List.of(new JobChange.WckeyName(JobWckey.asked("wb"))),
                        230,
                        tracked()))
                .isInstanceOf(SlurmException.class)
                .hasMessage(ErrorCode.JOB_NOT_PENDING.text());
    }
}
