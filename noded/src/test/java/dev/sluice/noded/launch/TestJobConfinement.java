package dev.sluice.noded.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.noded.confine.Confinement;
import dev.sluice.noded.confine.ConfinementPolicy;
import dev.sluice.noded.confine.DeviceFile;
import dev.sluice.noded.confine.GresDevices;
import dev.sluice.noded.confine.JobLimits;
import dev.sluice.noded.job.GresGrant;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Who makes and who takes down a job's cgroup (the batch launch, or the steps where there is
 * none) and each step's under it.
 */
class TestJobConfinement {
    /** Cgroups as maps: job → its limits, "job/step" → the step's denied devices; removals recorded. */
    static final class Recording implements Confinement {
        final Map<Integer, JobLimits> cgroups = new LinkedHashMap<>();
        final Map<String, List<DeviceFile>> steps = new LinkedHashMap<>();
        final List<Integer> removed = new ArrayList<>();
        final List<String> stepsRemoved = new ArrayList<>();
        boolean oom;
        boolean stepsFail;

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
            steps.keySet().removeIf(k -> k.startsWith(jobId + "/"));
            removed.add(jobId);
        }

        @Override
        public List<Path> createStep(int jobId, String step, List<DeviceFile> denied) throws IOException {
            assertThat(cgroups).as("a step's cgroup is made under its job's").containsKey(jobId);
            if (stepsFail) {
                throw new IOException("refused");
            }
            steps.put(jobId + "/" + step, denied);
            return List.of(Path.of("/cg/job_" + jobId + "/" + step));
        }

        @Override
        public void removeStep(int jobId, String step) {
            steps.remove(jobId + "/" + step);
            stepsRemoved.add(jobId + "/" + step);
        }
    }

    private final Recording cgroups = new Recording();
    private final JobConfinement confinement = new JobConfinement(
            cgroups, ConfinementPolicy.sluiceDefault(), new GresDevices(Map.of("gpu", List.of("/dev/null"))), 0, 2);

    @Test
    void aBatchJobIsConfinedFromItsFirstInstructionAndItsStepsJoinIt() throws IOException {
        List<String> command = confinement.batch(5, 100, 2, List.of(1), List.of(), List.of("script"));
        assertThat(command).startsWith("/bin/sh").endsWith("/cg/job_5/step_batch", "--", "script");
        assertThat(cgroups.steps.get("5/step_batch"))
                .as("the batch script is denied what the job is")
                .isEqualTo(cgroups.cgroups.get(5).denied());
        JobLimits limits = cgroups.cgroups.get(5);
        assertThat(limits.memoryBytes()).isEqualTo(100L << 20);
        assertThat(limits.cpuIds()).as("core 1 with 2 threads per core").containsExactly(2, 3);
        assertThat(limits.denied())
                .as("/dev/null stands in for a GPU the job was not granted")
                .singleElement()
                .extracting(d -> d.major() + ":" + d.minor())
                .isEqualTo("1:3");

        assertThat(confinement.step(5, 0, 100, 2, List.of(1), List.of())).containsExactly(Path.of("/cg/job_5/step_0"));
        assertThat(cgroups.steps).containsKeys("5/step_batch", "5/step_0");
        confinement.stepEnded(5, 0);
        assertThat(cgroups.stepsRemoved).containsExactly("5/step_0");
        assertThat(cgroups.removed)
                .as("a step leaves the batch job's cgroup alone")
                .isEmpty();

        cgroups.oom = true;
        assertThat(confinement.batchEnded(5)).isTrue();
        assertThat(cgroups.removed).containsExactly(5);
        assertThat(cgroups.steps).as("the batch step goes with its job").isEmpty();
    }

    @Test
    void whereNoBatchScriptRunsTheFirstStepMakesTheCgroupAndTheLastTakesItDown() {
        GresGrant gpu0 = new GresGrant("gpu", "", List.of(0), 1);
        assertThat(confinement.step(8, 0, 300, 1, List.of(), List.of())).containsExactly(Path.of("/cg/job_8/step_0"));
        assertThat(cgroups.cgroups.get(8).memoryBytes()).isEqualTo(300L << 20);
        assertThat(cgroups.cgroups.get(8).denied())
                .as("the job's cgroup denies nothing: the launch names the step's GPUs, not the job's")
                .isEmpty();
        assertThat(cgroups.steps.get("8/step_0"))
                .as("a step without GPUs is denied the node's")
                .singleElement()
                .extracting(d -> d.major() + ":" + d.minor())
                .isEqualTo("1:3");
        assertThat(confinement.step(8, 1, 300, 1, List.of(), List.of(gpu0)))
                .containsExactly(Path.of("/cg/job_8/step_1"));
        assertThat(cgroups.steps.get("8/step_1"))
                .as("the second step holds the only GPU: not restricted by the first")
                .isEmpty();
        confinement.stepEnded(8, 0);
        assertThat(cgroups.stepsRemoved).containsExactly("8/step_0");
        assertThat(cgroups.removed).isEmpty();
        confinement.stepEnded(8, 1);
        assertThat(cgroups.stepsRemoved).containsExactly("8/step_0", "8/step_1");
        assertThat(cgroups.removed).containsExactly(8);
    }

    @Test
    void aStepWhoseCgroupCannotBeMadeRunsInItsJobs() throws IOException {
        confinement.batch(4, 100, 1, List.of(), List.of(), List.of("script"));
        cgroups.stepsFail = true;
        assertThat(confinement.step(4, 2, 100, 1, List.of(), List.of())).containsExactly(Path.of("/cg/job_4"));
        confinement.stepEnded(4, 2);
        assertThat(cgroups.removed).isEmpty();
    }

    @Test
    void withoutCgroupsTheCommandIsUnchanged() {
        JobConfinement none = JobConfinement.none();
        assertThat(none.batch(1, 100, 1, List.of(), List.of(), List.of("script")))
                .containsExactly("script");
        assertThat(none.step(1, 0, 100, 1, List.of(), List.of())).isEmpty();
        none.stepEnded(1, 0);
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
