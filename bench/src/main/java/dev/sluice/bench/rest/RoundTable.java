package dev.sluice.bench.rest;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** bench-rest's table: a row per round as it ends, then the comparison. */
final class RoundTable {
    /** The bound: polling may cost scheduling at most this fraction of its rate. */
    static final double TARGET = 0.05;

    private final PrintStream out;
    private int n;

    RoundTable(PrintStream out) {
        this.out = out;
    }

    void header() {
        out.println("round clients  jobs/s  passes  pass ms  pass max  ctld ms/job  listings  answers/s"
                + "  KB/answer  p50 ms  p99 ms  restd ms/answer  clients ms/answer  load before");
    }

    void row(RestBench.Round r) {
        n++;
        var j = r.jobs();
        var p = r.passes();
        String polls = "        -          -       -       -                -                  -";
        if (r.polled() && r.polls() != null) {
            var q = r.polls();
            long answered = Math.max(1, q.answered());
            polls = String.format(
                    Locale.ROOT,
                    "%9.0f  %9.1f  %6.1f  %6.1f  %15.3f  %17.3f",
                    q.perSecond(),
                    q.bytes() / 1024.0 / answered,
                    q.p50Ms(),
                    q.p99Ms(),
                    r.restdCpuMs() / answered,
                    r.clientsCpuMs() / answered);
        }
        out.printf(
                Locale.ROOT,
                "%5d %7s %7.0f %7d %8.2f %9.1f %12.3f %9d  %s  %s%s%n",
                n,
                r.polled() ? (r.polls() != null ? "yes" : "burn") : "no",
                j.jobsPerSecond(),
                p.count(),
                p.meanMs(),
                p.maxMs(),
                j.ctldCpuMs() / j.jobs(),
                p.listings(),
                polls,
                r.loadBefore(),
                failures(r));
    }

    private static String failures(RestBench.Round r) {
        String s = r.jobs().failed() > 0 ? "  (" + r.jobs().failed() + " jobs FAILED)" : "";
        if (r.polled() && r.polls() != null && r.polls().failed() > 0) {
            s += "  (" + r.polls().failed() + " polls FAILED)";
        }
        return s;
    }

    void summary(RestBench.Result result) {
        List<Double> ratios = result.ratios();
        double mean = ratios.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
        double without = result.meanJobsPerSecond(false);
        double with = result.meanJobsPerSecond(true);
        out.printf(
                Locale.ROOT,
                "bench-rest: jobs/s without clients %.0f (mean of %d rounds), with %.0f (%d rounds)%n",
                without,
                result.rounds().stream().filter(r -> !r.polled()).count(),
                with,
                ratios.size());
        out.printf(
                Locale.ROOT,
                "bench-rest: scheduling pass mean %.2f ms without clients, %.2f ms with%n",
                passMean(result, false),
                passMean(result, true));
        out.printf(
                Locale.ROOT,
                "bench-rest: sluice-ctld CPU per job %.3f ms without clients, %.3f ms with;"
                        + " the difference over the listings it served: %.1f ms of CPU a listing%n",
                result.ctldMsPerJob(false),
                result.ctldMsPerJob(true),
                result.ctldMsPerListing());
        out.println("bench-rest: each polled round over the mean of the rounds either side: "
                + ratios.stream()
                        .map(d -> String.format(Locale.ROOT, "%.3f", d))
                        .collect(Collectors.joining(", "))
                + String.format(Locale.ROOT, " (mean %.3f)", mean));
        double slowdown = 1 - mean;
        out.printf(
                Locale.ROOT,
                "bench-rest: slowdown %.1f %% (target: at most %.0f %%): %s%n",
                100 * slowdown,
                100 * TARGET,
                slowdown <= TARGET ? "holds" : "does not hold");
    }

    private static double passMean(RestBench.Result result, boolean polled) {
        long count = 0;
        double ms = 0;
        for (RestBench.Round r : result.rounds()) {
            if (r.polled() == polled) {
                count += r.passes().count();
                ms += r.passes().meanMs() * r.passes().count();
            }
        }
        return count == 0 ? 0 : ms / count;
    }
}
