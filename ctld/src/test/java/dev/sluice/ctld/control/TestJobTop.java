package dev.sluice.ctld.control;

import static dev.sluice.ctld.Builders.aJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.StateRecord;
import java.util.List;
import java.util.function.ToLongFunction;
import org.junit.jupiter.api.Test;

/**
 * {@code scontrol top}: the listed jobs take the highest priorities of their user's queue by
 * nice, the others give them up, as real Slurm 22.05 did (compat 306, 307).
 */
class TestJobTop {
    private static final long NOW = 1_000_000;
    private static final Caller ROOT = Caller.of(0, 0, "root");
    private static final Caller USER = Caller.of(1000, 1000, "alice");

    private final ClusterFixture cluster = ClusterFixture.idle(1, 4, NOW);
    // priority/basic's: fewer for a later job, less its nice.
    private final ToLongFunction<Job> priority = j -> 100 - j.id() - j.request().nice();

    private int submit() {
        return cluster.submit(aJob().uid(1000).build(), "p", 10, NOW - 10);
    }

    private void top(Caller caller, String... ids) {
        cluster.apply(JobTop.top(cluster.state(), caller, List.of(ids), priority, NOW));
    }

    private int nice(int id) {
        return cluster.state().job(id).request().nice();
    }

    @Test
    void theListedJobsTakeTheHighestPrioritiesAndTheOthersPayForIt() {
        int a = submit();
        int b = submit();
        int c = submit();

        top(ROOT, String.valueOf(c));
        assertThat(List.of(nice(a), nice(b), nice(c))).containsExactly(1, 1, -2);
        assertThat(cluster.state().jobs().stream().map(priority::applyAsLong).toList())
                .containsExactly(98L, 97L, 99L);

        top(ROOT, String.valueOf(b), String.valueOf(a));
        assertThat(List.of(nice(a), nice(b), nice(c))).containsExactly(1, -1, 0);
    }

    @Test
    void onlyAnOperatorMayAndOnlyPendingJobsMove() {
        int running = submit();
        cluster.replay(new StateRecord.JobStarted(
                running, new Allocation(List.of(Allocation.NodeShare.of("n1", 1, 0, 1))), "p", 10, NOW - 5));
        int pending = submit();

        assertThatThrownBy(() -> top(USER, String.valueOf(pending)))
                .isInstanceOfSatisfying(
                        SlurmException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.ACCESS_DENIED));
        assertThatThrownBy(() -> top(ROOT, "4999999"))
                .isInstanceOfSatisfying(
                        SlurmException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_JOB_ID));
        assertThatThrownBy(() -> top(ROOT, String.valueOf(running)))
                .isInstanceOfSatisfying(
                        SlurmException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.JOB_NOT_PENDING));
        assertThat(nice(pending)).isZero();
    }
}
