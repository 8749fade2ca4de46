package dev.sluice.cli.command.squeue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.testing.Fixtures;
import dev.sluice.cli.testing.TestingInvocations;
import dev.sluice.cli.view.JobView;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.JobState;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** squeue's order between jobs its keys do not tell apart, as Slurm 22.05's squeue leaves it. */
class TestJobOrder {
    private static JobView view(int id, JobState state, long start) {
        JobInfo j =
                Fixtures.job(id, Fixtures.wrapSpec(), state).setStartTime(start).build();
        return new JobView(
                j, Fixtures.SQUEUE_NOW, Clock.fixed(Fixtures.SQUEUE_NOW, ZoneOffset.UTC), TestingInvocations.USERS);
    }

    /** The ids in the order the default sort gives, each job's place in the answer its index. */
    private static List<Integer> sorted(List<JobView> answer) {
        List<JobView> views = new ArrayList<>(answer);
        views.sort(JobOrder.parse(JobOrder.DEFAULT, answer::indexOf).comparator());
        return views.stream().map(v -> v.info().getJobId()).toList();
    }

    @Test
    void theDefaultStateOrderComparesCompactNamesSoARunningJobPrecedesAResvDelHold() {
        // Slurm 22.05 (compat 255): J+3 RUNNING listed before J+2 RESV_DEL_HOLD.
        JobView held = new JobView(
                Fixtures.job(2, Fixtures.wrapSpec(), JobState.PENDING)
                        .setHold("RESV_DEL")
                        .build(),
                Fixtures.SQUEUE_NOW,
                Clock.fixed(Fixtures.SQUEUE_NOW, ZoneOffset.UTC),
                TestingInvocations.USERS);
        assertThat(sorted(List.of(held, view(3, JobState.RUNNING, 500)))).containsExactly(3, 2);
        assertThat(sorted(List.of(view(3, JobState.RUNNING, 500), view(2, JobState.PENDING, 0))))
                .containsExactly(2, 3);
    }

    @Test
    void startedJobsLatestFirstAndWithinASecondInTheControllersOrder() {
        assertThat(sorted(List.of(
                        view(11, JobState.RUNNING, 500),
                        view(13, JobState.RUNNING, 500),
                        view(14, JobState.RUNNING, 501))))
                .containsExactly(14, 11, 13);
        assertThat(sorted(List.of(view(13, JobState.RUNNING, 500), view(11, JobState.RUNNING, 500))))
                .containsExactly(13, 11);
    }

    private static JobView begins(int id, long begin) {
        JobInfo j = Fixtures.job(id, Fixtures.wrapSpec().setBeginTime(begin), JobState.PENDING)
                .setStartTime(begin + 77)
                .build();
        return new JobView(
                j, Fixtures.SQUEUE_NOW, Clock.fixed(Fixtures.SQUEUE_NOW, ZoneOffset.UTC), TestingInvocations.USERS);
    }

    @Test
    void pendingJobsWithABeginTimeComeFirstLatestFirst() {
        // Slurm 22.05, four held jobs (priority 0): X -H, Y --begin=now+1hour, Z --begin=now+2hours,
        // W -H listed Z Y W X; two held with the same begin time, in the controller's order.
        assertThat(sorted(List.of(
                        view(182, JobState.PENDING, 0),
                        begins(183, 1000),
                        begins(184, 2000),
                        view(185, JobState.PENDING, 0))))
                .containsExactly(184, 183, 185, 182);
        assertThat(sorted(List.of(view(175, JobState.PENDING, 0), begins(176, 1000), begins(177, 1000))))
                .containsExactly(176, 177, 175);
    }

    @Test
    void pendingJobsInTheReverseOfTheControllersOrder() {
        assertThat(sorted(List.of(
                        view(3, JobState.PENDING, 0), view(4, JobState.PENDING, 0), view(5, JobState.PENDING, 0))))
                .containsExactly(5, 4, 3);
    }

    @Test
    void startSortsByExpectedStartAndJobsWithoutOneLast() {
        // Slurm 22.05 (compat 261): J+1 (backfill's estimate), J+2 (its begin time, later), then
        // J+3 held and J+4 waiting on a dependency, neither with a start, as the controller's
        // list leaves them.
        List<JobView> answer = List.of(
                view(4, JobState.PENDING, 0),
                view(5, JobState.PENDING, 0),
                view(3, JobState.PENDING, 9000),
                view(2, JobState.PENDING, 600));
        List<JobView> views = new ArrayList<>(answer);
        views.sort(JobOrder.parse(JobOrder.START, answer::indexOf).comparator());
        assertThat(views.stream().map(v -> v.info().getJobId())).containsExactly(2, 3, 4, 5);
    }
}
