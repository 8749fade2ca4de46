package dev.sluice.noded.launch;

import dev.sluice.noded.confine.Confinement;
import dev.sluice.noded.confine.ConfinementPolicy;
import dev.sluice.noded.confine.DeviceFile;
import dev.sluice.noded.confine.GresDevices;
import dev.sluice.noded.confine.JobLimits;
import dev.sluice.noded.confine.Unconfined;
import dev.sluice.noded.job.GresGrant;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The launchers' side of job and step cgroups: a batch job's cgroup is made at its launch, the
 * script runs in its {@code step_batch} under it, and the job's cgroup is taken down once the job
 * has been reported. Each step's tasks run in the step's own cgroup under its job's
 * ({@code job_N/step_M}: only the step's GRES devices), removed when the step ends. Where the job
 * has no cgroup on this node (no batch script runs here: a multi-node job's other nodes, an
 * {@code salloc}), the first step makes it, with the job's memory here and no device rules of its
 * own (the launch names the step's GRES, not the job's), and the last step to end takes it down.
 * Failing to make one is logged and the job (or step) runs unconfined (in the job's cgroup), as
 * before cgroups.
 */
public final class JobConfinement {
    private static final Logger log = LoggerFactory.getLogger(JobConfinement.class);

    private final Confinement confinement;
    private final ConfinementPolicy policy;
    private final GresDevices devices;
    private final long realMemoryMb;
    private final int threadsPerCore;
    /** Jobs whose cgroup steps made here → how many of their steps run in it. */
    private final Map<Integer, Integer> stepOwned = new HashMap<>();

    public JobConfinement(
            Confinement confinement,
            ConfinementPolicy policy,
            GresDevices devices,
            long realMemoryMb,
            int threadsPerCore) {
        this.confinement = confinement;
        this.policy = policy;
        this.devices = devices;
        this.realMemoryMb = realMemoryMb;
        this.threadsPerCore = Math.max(1, threadsPerCore);
    }

    /** No cgroups (tests, and a daemon that was not told). */
    public static JobConfinement none() {
        return new JobConfinement(
                new Unconfined("not confined"), ConfinementPolicy.sluiceDefault(), GresDevices.NONE, 0, 1);
    }

    public boolean confines() {
        return confinement.confines();
    }

    /** The node's GRES device files {@code grants} does not cover, that exist as device nodes. */
    List<DeviceFile> denied(List<GresGrant> grants) {
        return devices.denied(grants).stream()
                .map(DeviceFile::stat)
                .flatMap(Optional::stream)
                .toList();
    }

    private List<Path> create(int jobId, long memoryMb, int cpus, List<Integer> cores, List<DeviceFile> denied) {
        JobLimits limits =
                policy.limits(jobId, memoryMb, realMemoryMb, cpus, CpuBinding.cpus(cores, threadsPerCore), denied);
        try {
            return confinement.create(limits);
        } catch (IOException e) {
            log.warn("job {}: no cgroup ({}); it runs without memory, CPU or device limits", jobId, e.getMessage());
            return List.of();
        }
    }

    /** The step's cgroups under the job's {@code jobDirs}; the job's own when they cannot be made. */
    private List<Path> createStep(int jobId, String step, List<Path> jobDirs, List<DeviceFile> denied) {
        if (jobDirs.isEmpty()) {
            return jobDirs;
        }
        try {
            return confinement.createStep(jobId, step, denied);
        } catch (IOException e) {
            log.warn("job {}: no cgroup for {} ({}); it runs in the job's", jobId, step, e.getMessage());
            confinement.removeStep(jobId, step);
            return jobDirs;
        }
    }

    /** The batch job's command, put into its cgroup first. */
    public List<String> batch(
            int jobId, long memoryMb, int cpus, List<Integer> cores, List<GresGrant> grants, List<String> command) {
        return Confinement.joining(batchCgroups(jobId, memoryMb, cpus, cores, grants), command);
    }

    /**
     * The cgroup directories the batch job's first process joins (made now; none when the node
     * does not confine or they cannot be made): {@link #batch}'s joiner, or the Perl supervisor
     * itself ({@code --cgroup}).
     */
    public synchronized List<Path> batchCgroups(
            int jobId, long memoryMb, int cpus, List<Integer> cores, List<GresGrant> grants) {
        if (!confinement.confines()) {
            return List.of();
        }
        if (stepOwned.remove(jobId) == null && !confinement.existing(jobId).isEmpty()) {
            // Left by an earlier run of the job (a daemon that died before reporting it): its
            // limits and device rules must not carry over.
            log.info("job {}: removing the cgroup an earlier run left", jobId);
            confinement.remove(jobId);
        }
        List<DeviceFile> denied = policy.devices() ? denied(grants) : List.of();
        List<Path> job = create(jobId, memoryMb, cpus, cores, denied);
        return createStep(jobId, Confinement.BATCH_STEP, job, denied);
    }

    /**
     * The cgroup directories a step's tasks join ({@link Confinement#joining}): the step's own
     * under its job's, the job's made now when it has none here. Each call is matched by one
     * {@link #stepEnded}.
     */
    public synchronized List<Path> step(
            int jobId, int stepId, long memoryMb, int cpus, List<Integer> cores, List<GresGrant> grants) {
        if (!confinement.confines()) {
            return List.of();
        }
        List<Path> job = confinement.existing(jobId);
        if (!job.isEmpty()) {
            stepOwned.computeIfPresent(jobId, (k, n) -> n + 1);
        } else {
            stepOwned.put(jobId, 1);
            job = create(jobId, memoryMb, cpus, cores, List.of());
        }
        List<DeviceFile> denied = policy.devices() ? denied(grants) : List.of();
        return createStep(jobId, Confinement.stepName(stepId), job, denied);
    }

    /**
     * A step's tasks here have ended: its cgroup goes, and a job cgroup steps made goes with the
     * last of them.
     */
    public synchronized void stepEnded(int jobId, int stepId) {
        if (!confinement.confines()) {
            return;
        }
        confinement.removeStep(jobId, Confinement.stepName(stepId));
        Integer left = stepOwned.computeIfPresent(jobId, (k, n) -> n - 1);
        if (left != null && left <= 0) {
            stepOwned.remove(jobId);
            confinement.remove(jobId);
        }
    }

    /**
     * The batch job has ended: whether the kernel's OOM killer took one of its processes, and
     * its cgroup (with whatever is left in it) goes.
     */
    public synchronized boolean batchEnded(int jobId) {
        if (!confinement.confines()) {
            return false;
        }
        boolean oom = confinement.oomKilled(jobId);
        confinement.remove(jobId);
        return oom;
    }
}
