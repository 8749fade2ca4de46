package dev.sluice.dbd.model;

import java.util.Map;
import java.util.TreeMap;

/**
 * What sreport's reservation report counts against a reservation: the TRES-seconds its jobs were
 * allocated within one row of its history, a running job up to now. Slurm 22.05 computes it
 * from the jobs at query time, not from the hourly rollups, so a reservation's use shows as soon
 * as its jobs run. Pure.
 */
public final class ReservationUsage {
    private final long start;
    private final long end;
    private final long now;
    private final Map<String, Long> allocSecs = new TreeMap<>();

    /** For the row {@code [start, end)} as seen at {@code now}. */
    public ReservationUsage(long start, long end, long now) {
        this.start = start;
        this.end = end;
        this.now = now;
    }

    /**
     * Adds a job that ran from {@code jobStart} to {@code jobEnd} (0: still running) with these
     * TRES; a job that has not started adds nothing.
     */
    public void add(long jobStart, long jobEnd, TresCounts tres) {
        if (jobStart <= 0) {
            return;
        }
        long to = Math.min(jobEnd <= 0 ? now : jobEnd, end);
        long from = Math.max(jobStart, start);
        if (to <= from) {
            return;
        }
        tres.counts().forEach((name, count) -> allocSecs.merge(name, count * (to - from), Long::sum));
    }

    /**
     * The seconds of the window up to {@code now} that the jobs added left idle, a job counting
     * its CPUs' share of the reservation's {@code cpus} (sacctmgr's UnusedWall); never below 0.
     */
    public double unusedWall(long cpus) {
        long to = Math.min(now, end);
        if (to <= start) {
            return 0;
        }
        double used = cpus > 0 ? (double) allocSecs.getOrDefault("cpu", 0L) / cpus : 0;
        return Math.max(0, (to - start) - used);
    }

    /** TRES-seconds by TRES name. */
    public Map<String, Long> allocSecs() {
        return Map.copyOf(allocSecs);
    }
}
