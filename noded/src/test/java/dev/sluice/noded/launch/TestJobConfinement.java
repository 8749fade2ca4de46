package dev.sluice.noded.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.noded.confine.Confinement;
import dev.sluice.noded.confine.ConfinementPolicy;
import dev.sluice.noded.confine.GresDevices;
import dev.sluice.noded.confine.JobLimits;
import dev.sluice.protocol.v1.GresGrant;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Who makes and who takes down a job's cgroup: the batch launch, or the steps where there is none. */
class TestJobConfinement {
    /** Cgroups as a map: job → its limits; removals recorded. */
    static final class Recording implements Confinement {
        final Map<Integer, JobLimits> cgroups = new LinkedHashMap<>();
        final List<Integer> removed = new ArrayList<>();
        boolean oom;

        @Override
        public String describe() {
            return "recording";
        }

        @Override
        public List<Path> create(JobLimits limits) {
            cgroups.put(limits.jobId(), limits);
            return List.of(Path.of("/cg/job_" + limits.jobId()));
        }

        @Override
        public List<Path> existing(int jobId) {
            return cgroups.containsKey(jobId) ? List.of(Path.of("/cg/job_" + jobId)) : List.of();
        }

        @Override
        public boolean oomKilled(int jobId) {
            return oom;
        }

        @Override
        public void remove(int jobId) {
            cgroups.remove(jobId);
            removed.add(jobId);
        }
    }

    private final Recording cgroups = new Recording();
    private final JobConfinement confinement = new JobConfinement(
            cgroups, ConfinementPolicy.sluiceDefault(), new GresDevices(Map.of("gpu", List.of("/dev/null"))), 0, 2);

    @Test
    void aBatchJobIsConfinedFromItsFirstInstructionAndItsStepsJoinIt() throws IOException {
        List<String> command = confinement.batch(5, 100, 2, List.of(1), List.of(), List.of("script"));
        assertThat(command).startsWith("/bin/sh").endsWith("/cg/job_5", "--", "script");
        JobLimits limits = cgroups.cgroups.get(5);
        assertThat(limits.memoryBytes()).isEqualTo(100L << 20);
        assertThat(limits.cpuIds()).as("core 1 with 2 threads per core").containsExactly(2, 3);
        assertThat(limits.denied())
                .as("/dev/null stands in for a GPU the job was not granted")
                .singleElement()
                .extracting(d -> d.major() + ":" + d.minor())
                .isEqualTo("1:3");

        assertThat(confinement.step(5, 100, 2, List.of(1), List.of())).containsExactly(Path.of("/cg/job_5"));
        confinement.stepEnded(5);
        assertThat(cgroups.removed)
                .as("a step leaves the batch job's cgroup alone")
                .isEmpty();

        cgroups.oom = true;
        assertThat(confinement.batchEnded(5)).isTrue();
        assertThat(cgroups.removed).containsExactly(5);
    }

    @Test
    void whereNoBatchScriptRunsTheFirstStepMakesTheCgroupAndTheLastTakesItDown() {
        GresGrant gpu0 =
                GresGrant.newBuilder().setName("gpu").addIndices(0).setCount(1).build();
        assertThat(confinement.step(8, 300, 1, List.of(), List.of(gpu0))).containsExactly(Path.of("/cg/job_8"));
        assertThat(cgroups.cgroups.get(8).memoryBytes()).isEqualTo(300L << 20);
        assertThat(cgroups.cgroups.get(8).denied())
                .as("the step holds the only GPU")
                .isEmpty();
        assertThat(confinement.step(8, 300, 1, List.of(), List.of(gpu0))).containsExactly(Path.of("/cg/job_8"));
        confinement.stepEnded(8);
        assertThat(cgroups.removed).isEmpty();
        confinement.stepEnded(8);
        assertThat(cgroups.removed).containsExactly(8);
    }

    @Test
    void withoutCgroupsTheCommandIsUnchanged() {
        JobConfinement none = JobConfinement.none();
        assertThat(none.batch(1, 100, 1, List.of(), List.of(), List.of("script")))
                .containsExactly("script");
        assertThat(none.step(1, 100, 1, List.of(), List.of())).isEmpty();
        assertThat(none.batchEnded(1)).isFalse();
    }

    @Test
    void aCgroupAnEarlierRunLeftIsRemovedBeforeTheBatchJobStarts() {
        cgroups.create(new JobLimits(3, 1, -1, 0, List.of(), List.of()));
        confinement.batch(3, 200, 1, List.of(), List.of(), List.of("script"));
        assertThat(cgroups.removed).containsExactly(3);
        assertThat(cgroups.cgroups.get(3).memoryBytes()).isEqualTo(200L << 20);
    }
}
