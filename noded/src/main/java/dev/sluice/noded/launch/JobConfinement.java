package dev.sluice.noded.launch;

import dev.sluice.noded.confine.Confinement;
import dev.sluice.noded.confine.ConfinementPolicy;
import dev.sluice.noded.confine.DeviceFile;
import dev.sluice.noded.confine.GresDevices;
import dev.sluice.noded.confine.JobLimits;
import dev.sluice.noded.confine.Unconfined;
import dev.sluice.protocol.v1.GresGrant;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The launchers' side of job cgroups: a batch job's cgroup is made at its launch and taken down
 * once it has been reported; a step joins its job's cgroup, and where the job has none on this
 * node (no batch script runs here: a multi-node job's other nodes, an {@code salloc}), the first
 * step makes it, with the job's memory here and the step's devices, and the last step to end
 * takes it down. Failing to make one is logged and the job runs unconfined, as before cgroups.
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

    private List<Path> create(int jobId, long memoryMb, int cpus, List<Integer> cores, List<GresGrant> grants) {
        JobLimits limits = policy.limits(
                jobId, memoryMb, realMemoryMb, cpus, CpuBinding.cpus(cores, threadsPerCore), denied(grants));
        try {
            return confinement.create(limits);
        } catch (IOException e) {
            log.warn("job {}: no cgroup ({}); it runs without memory, CPU or device limits", jobId, e.getMessage());
            return List.of();
        }
    }

    /** The batch job's command, put into its cgroup first. */
    public synchronized List<String> batch(
            int jobId, long memoryMb, int cpus, List<Integer> cores, List<GresGrant> grants, List<String> command) {
        if (!confinement.confines()) {
            return command;
        }
        if (stepOwned.remove(jobId) == null && !confinement.existing(jobId).isEmpty()) {
            // Left by an earlier run of the job (a daemon that died before reporting it): its
            // limits and device rules must not carry over.
            log.info("job {}: removing the cgroup an earlier run left", jobId);
            confinement.remove(jobId);
        }
        return Confinement.joining(create(jobId, memoryMb, cpus, cores, grants), command);
    }

    /**
     * The cgroup directories a step's tasks join ({@link Confinement#joining}): its job's, made
     * now when the job has none here. Each call is matched by one {@link #stepEnded}.
     */
    public synchronized List<Path> step(
            int jobId, long memoryMb, int cpus, List<Integer> cores, List<GresGrant> grants) {
        if (!confinement.confines()) {
            return List.of();
        }
        List<Path> dirs = confinement.existing(jobId);
        if (!dirs.isEmpty()) {
            stepOwned.computeIfPresent(jobId, (k, n) -> n + 1);
            return dirs;
        }
        stepOwned.put(jobId, 1);
        return create(jobId, memoryMb, cpus, cores, grants);
    }

    /** A step's tasks here have ended: a cgroup steps made goes with the last of them. */
    public synchronized void stepEnded(int jobId) {
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
