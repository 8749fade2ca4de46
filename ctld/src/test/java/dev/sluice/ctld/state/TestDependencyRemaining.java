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
    void aJobNobodyKnowsIsMetAndDroppedUnlessTheJobIsHeld() {
        Job self = Job.submitted(6, aJob().build(), "p", 60, 0);
        ClusterImage image = imageOf(List.of(self));
        assertThat(Dependency.parse("afterok:4999999").remaining(image, self, 100, true))
                .isEmpty();
        assertThat(Dependency.parse("afterok:4999999").remaining(image, self, 100, false))
                .isEqualTo("afterok:4999999(unfulfilled)");
    }
}
