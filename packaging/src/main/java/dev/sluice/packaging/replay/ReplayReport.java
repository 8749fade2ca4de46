package dev.sluice.packaging.replay;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The usual figures of a scheduling simulation, computed from a {@link ReplayResult}, and their
 * text. Only simulated quantities: no wall-clock time, so the same replay prints the same bytes.
 *
 * @param makespan seconds from the first submission to the last end
 * @param utilisation CPU-seconds held by jobs over CPU-seconds the cluster had during the makespan
 * @param boundedSlowdown mean of max(1, (wait + run) / max(run, 10 s)) (Feitelson's bounded slowdown)
 */
public record ReplayReport(
        ReplayResult result,
        long makespan,
        double utilisation,
        double meanWait,
        double medianWait,
        long p95Wait,
        double boundedSlowdown,
        long mainStarts,
        long backfillStarts,
        long timedOut) {

    /** Runs shorter than this count as this long in the bounded slowdown. */
    static final long SLOWDOWN_THRESHOLD = 10;

    public static ReplayReport of(ReplayResult result) {
        List<JobOutcome> jobs = result.outcomes();
        if (jobs.isEmpty()) {
            return new ReplayReport(result, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        }
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        long cpuSeconds = 0;
        double slowdown = 0;
        long backfilled = 0;
        long timedOut = 0;
        long[] waits = new long[jobs.size()];
        for (int i = 0; i < waits.length; i++) {
            JobOutcome j = jobs.get(i);
            first = Math.min(first, j.submit());
            last = Math.max(last, j.end());
            cpuSeconds += j.cpus() * j.ran();
            waits[i] = j.waited();
            slowdown += Math.max(1.0, (double) (j.waited() + j.ran()) / Math.max(j.ran(), SLOWDOWN_THRESHOLD));
            backfilled += j.backfilled() ? 1 : 0;
            timedOut += j.timedOut() ? 1 : 0;
        }
        long makespan = last - first;
        Arrays.sort(waits);
        int n = waits.length;
        double median = n % 2 == 1 ? waits[n / 2] : (waits[n / 2 - 1] + waits[n / 2]) / 2.0;
        // Nearest rank: the smallest wait that at least 95 % of the jobs did not exceed.
        long p95 = waits[(int) Math.ceil(0.95 * n) - 1];
        double utilisation = makespan == 0 ? 0 : (double) cpuSeconds / ((double) result.totalCpus() * makespan);
        return new ReplayReport(
                result,
                makespan,
                utilisation,
                Arrays.stream(waits).average().orElse(0),
                median,
                p95,
                slowdown / n,
                n - backfilled,
                backfilled,
                timedOut);
    }

    /** The report as {@code sluice simulate} prints it. */
    public String text() {
        StringBuilder out = new StringBuilder();
        line(out, "jobs in trace", "%,d", result.traceJobs());
        line(out, "skipped (no run time or size)", "%,d", result.skipped());
        line(out, "refused at submission", "%,d", result.refused().size());
        for (String r : result.refused().subList(0, Math.min(5, result.refused().size()))) {
            out.append("  ").append(r).append('\n');
        }
        line(out, "never started", "%,d", result.neverStarted());
        line(out, "jobs run", "%,d", result.outcomes().size());
        line(out, "killed at time limit", "%,d", timedOut);
        line(out, "cluster CPUs", "%,d", result.totalCpus());
        line(out, "makespan (s)", "%,d", makespan);
        line(out, "utilisation", "%.4f", utilisation);
        line(out, "wait mean (s)", "%,.1f", meanWait);
        line(out, "wait median (s)", "%,.1f", medianWait);
        line(out, "wait p95 (s)", "%,d", p95Wait);
        line(out, "bounded slowdown mean (10 s)", "%,.2f", boundedSlowdown);
        line(out, "started by main pass", "%,d", mainStarts);
        line(out, "started by backfill", "%,d", backfillStarts);
        line(out, "scheduling passes", "%,d", result.passes());
        return out.toString();
    }

    private static void line(StringBuilder out, String label, String format, Object value) {
        out.append(String.format(Locale.ROOT, "%-31s", label))
                .append(String.format(Locale.ROOT, format, value))
                .append('\n');
    }
}
