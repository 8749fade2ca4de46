package dev.sluice.noded.confine;

import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The CPUs of each job's cpuset: those the controller allocated when the launch names them,
 * otherwise the lowest CPUs of the node no other job here holds (all of them, overlapping, when
 * the node is overcommitted).
 */
public final class CpuPicker {
    private final int nodeCpus;
    private final Map<Integer, TreeSet<Integer>> cpusByJob = new ConcurrentHashMap<>();

    CpuPicker(int nodeCpus) {
        this.nodeCpus = nodeCpus;
    }

    synchronized TreeSet<Integer> pick(int jobId, int count, List<Integer> allocated) {
        TreeSet<Integer> mine = allocated.isEmpty() ? lowestFree(count) : new TreeSet<>(allocated);
        cpusByJob.put(jobId, mine);
        return mine;
    }

    synchronized TreeSet<Integer> lowestFree(int count) {
        TreeSet<Integer> used = new TreeSet<>();
        cpusByJob.values().forEach(used::addAll);
        TreeSet<Integer> mine = new TreeSet<>();
        for (int c = 0; c < nodeCpus && mine.size() < count; c++) {
            if (!used.contains(c)) {
                mine.add(c);
            }
        }
        for (int c = 0; c < nodeCpus && mine.size() < count; c++) {
            mine.add(c);
        }
        return mine;
    }

    void release(int jobId) {
        cpusByJob.remove(jobId);
    }
}
