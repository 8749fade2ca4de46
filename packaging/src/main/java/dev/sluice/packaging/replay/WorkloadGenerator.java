package dev.sluice.packaging.replay;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A seeded synthetic trace in the shape the workload literature reports for HPC logs: many serial
 * and power-of-two jobs, run times spread over orders of magnitude (log-uniform, 10 s to 12 h),
 * users asking for more time than they use (and a few for less, who are killed at the limit),
 * Poisson arrivals paced so that the offered load is a chosen fraction of the cluster.
 * {@link Random} is specified to give the same numbers everywhere, so a seed is a trace.
 */
public final class WorkloadGenerator {
    private static final double MIN_RUN = 10;
    private static final double MAX_RUN = 12 * 3600;
    private static final int USERS = 50;

    private WorkloadGenerator() {}

    /**
     * @param totalCpus CPUs of the cluster the load is paced for; jobs ask for at most a quarter
     * @param load offered load: CPU-seconds asked for over CPU-seconds available while they arrive
     */
    public static List<SwfJob> generate(int jobs, long totalCpus, double load, long seed) {
        if (jobs < 1 || totalCpus < 1 || !(load > 0)) {
            throw new IllegalArgumentException("need at least one job, one CPU and a positive load");
        }
        Random random = new Random(seed);
        long maxProcs = Math.max(1, totalCpus / 4);
        long[] procs = new long[jobs];
        long[] run = new long[jobs];
        long[] asked = new long[jobs];
        double work = 0;
        for (int i = 0; i < jobs; i++) {
            procs[i] = size(random, maxProcs);
            run[i] = Math.round(Math.exp(Math.log(MIN_RUN) + random.nextDouble() * Math.log(MAX_RUN / MIN_RUN)));
            asked[i] = requestedTime(random, run[i]);
            work += (double) procs[i] * Math.min(run[i], asked[i]);
        }
        double meanGap = work / jobs / (totalCpus * load);
        List<SwfJob> out = new ArrayList<>(jobs);
        double t = 0;
        for (int i = 0; i < jobs; i++) {
            if (i > 0) {
                t += -meanGap * Math.log(1 - random.nextDouble());
            }
            long uid = 1 + random.nextInt(USERS);
            out.add(new SwfJob(
                    i + 1,
                    Math.round(t),
                    -1,
                    run[i],
                    procs[i],
                    -1,
                    -1,
                    procs[i],
                    asked[i],
                    -1,
                    1,
                    uid,
                    1,
                    -1,
                    1,
                    1,
                    -1,
                    -1));
        }
        return out;
    }

    /** Three in ten serial; of the rest, nine in ten a power of two, the others any size. */
    private static long size(Random random, long maxProcs) {
        if (random.nextInt(10) < 3 || maxProcs == 1) {
            return 1;
        }
        if (random.nextInt(10) < 9) {
            int maxLog = 63 - Long.numberOfLeadingZeros(maxProcs);
            return 1L << (1 + random.nextInt(Math.max(1, maxLog)));
        }
        return 1 + (long) (random.nextDouble() * maxProcs);
    }

    /** Rounded up to 15 minutes; one job in twelve underestimates and will be killed. */
    private static long requestedTime(Random random, long run) {
        double factor = random.nextInt(12) == 0 ? 0.5 + random.nextDouble() * 0.4 : 1 + random.nextDouble() * 4;
        long quarter = 900;
        long asked = Math.max(1, (long) Math.ceil(run * factor / quarter)) * quarter;
        return asked;
    }
}
