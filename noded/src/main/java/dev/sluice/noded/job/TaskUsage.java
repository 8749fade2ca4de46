package dev.sluice.noded.job;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * sstat: what one task (the batch script is task 0 of the batch step) uses now, with every
 * process it started.
 *
 * @param pids the task's process and its descendants, parents first
 * @param cpuSeconds user and system CPU time
 * @param pages major page faults
 * @param readBytes bytes read through read calls (rchar); {@code writeBytes} likewise (wchar)
 * @param cpuFreqKhz the task's CPUs' current frequency; 0: unknown
 */
public record TaskUsage(
        int taskId,
        String node,
        List<Integer> pids,
        double cpuSeconds,
        long rssKb,
        long vmsizeKb,
        long pages,
        long readBytes,
        long writeBytes,
        long cpuFreqKhz) {
    public TaskUsage {
        requireNonNull(node, "node is null");
        pids = List.copyOf(pids);
    }
}
