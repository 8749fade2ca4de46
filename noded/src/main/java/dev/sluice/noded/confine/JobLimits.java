package dev.sluice.noded.confine;

import java.util.List;

/**
 * What one job's cgroup enforces on this node.
 *
 * @param memoryBytes the RAM limit; 0 = none
 * @param swapBytes swap allowed on top of the RAM limit; -1 = not constrained
 * @param cpus the job's CPU count here; 0 = no CPU set
 * @param cpuIds the CPU ids the controller allocated, when the launch names them (exactly those);
 *     empty: the lowest {@code cpus} CPUs no other job here holds
 * @param denied the device files the job may not open
 */
public record JobLimits(
        int jobId, long memoryBytes, long swapBytes, int cpus, List<Integer> cpuIds, List<DeviceFile> denied) {
    public JobLimits {
        cpuIds = List.copyOf(cpuIds);
        denied = List.copyOf(denied);
    }

    public boolean constrainsCpus() {
        return cpus > 0 || !cpuIds.isEmpty();
    }
}
