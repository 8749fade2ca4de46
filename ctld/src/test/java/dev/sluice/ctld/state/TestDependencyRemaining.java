package dev.sluice.ctld.state;

import static dev.sluice.ctld.Builders.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** squeue %E and scontrol Dependency= as real Slurm 22.05 printed them (recorded by hand-run probes). */
class TestDependencyRemaining {
    private static ClusterImage imageOf(List<Job> jobs) {
        Map<Integer, Job> byId = new java.util.HashMap<>();
        jobs.forEach(j -> byId.put(j.id(), j));
        return new ClusterImage(
                1,
                100,
                new ClusterImage.Tables(jobs, byId, List.of(), Map.of(), List.of(), Reservations.NONE),
                ClusterImage.QueueFacts.NONE,
                ClusterImage.RunFacts.NONE);
    }

    @Test
    void eachReferenceIsShownOnItsOwnWhileItWaits() {
        Job target = Job.submitted(5, aJob().build(), "p", 60, 0);
        Job self = Job.submitted(6, aJob().build(), "p", 60, 0);
        ClusterImage image = imageOf(List.of(target, self));
        assertThat(Dependency.parse("afterok:5:4999998,after:5+5").remaining(image, self, 100, true))
                .isEqualTo("afterok:5(unfulfilled),after:5+5(unfulfilled)");
        assertThat(Dependency.parse("afterany:5?singleton").remaining(image, self, 100, true))
                .isEqualTo("afterany:5(unfulfilled)?singleton(unfulfilled)");
        assertThat(Dependency.parse("afterok:5_1").remaining(image, self, 100, false))
                .isEqualTo("afterok:5_1(unfulfilled)");
    }

    @Test
    void aftercorrNamesTheWholeArrayAndJudgesTheRecordsOwnTask() {
        // Real Slurm 22.05: aftercorr:J_*(unfulfilled) while the partner runs, aftercorr:J_*(failed)
        // on the task whose partner failed (compat 295).
        Job running = Job.submitted(5, aJob().build(), "p", 60, 0, new ArrayPart(5, 0, TaskSet.EMPTY, 0));
        Job waiting = Job.submitted(6, aJob().build(), "p", 60, 0, new ArrayPart(6, -1, TaskSet.of(List.of(0, 1)), 0));
        assertThat(Dependency.parse("aftercorr:5").remaining(imageOf(List.of(running, waiting)), waiting, 100, true))
                .isEqualTo("aftercorr:5_*(unfulfilled)");
        Job failed = running.ended(
                dev.sluice.common.slurm.JobState.FAILED, 256, 100, dev.sluice.common.slurm.JobReason.NONE);
        assertThat(Dependency.parse("aftercorr:5").remaining(imageOf(List.of(failed, waiting)), waiting, 100, true))
                .isEqualTo("aftercorr:5_*(failed)");
        // Task 1's partner is unknown here (long gone): met, so nothing is left to show for it.
        Job task1 = Job.submitted(7, aJob().build(), "p", 60, 0, new ArrayPart(6, 1, TaskSet.EMPTY, 0));
        assertThat(Dependency.parse("aftercorr:5").remaining(imageOf(List.of(failed, task1)), task1, 100, true))
                .isEmpty();
        assertThat(Dependency.parse("aftercorr:5").correlates()).isTrue();
        assertThat(Dependency.parse("afterok:5").correlates()).isFalse();
    }

    @Test
    void aJobNobodyKnowsIsMetAndDroppedUnlessTheJobIsHeld() {
        Job self = Job.submitted(6, aJob().build(), "p", 60, 0);
        ClusterImage image = imageOf(List.of(self));
        assertThat(Dependency.parse("afterok:4999999").remaining(image, self, 100, true))
                .isEmpty();
        assertThat(Dependency.parse("afterok:4999999").remaining(image, self, 100, false))
                .isEqualTo("afterok:4999999(unfulfilled)");
    }
}
