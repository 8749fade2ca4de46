package dev.sluice.packaging.sim;

import dev.sluice.ctld.state.JobRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A seeded job mix for the scale harness and the JMH benchmarks: mostly small CPU jobs, some
 * whole-node multi-node jobs, some GPU jobs, time limits from 10 minutes to a day, a few dozen
 * users. Partitions {@code cpu} (64-CPU nodes) and {@code gpu}.
 */
public final class SyntheticWorkload {
    private static final int[] TASKS = {1, 2, 4, 8, 16, 32};
    private static final long[] LIMITS = {10, 30, 60, 120, 240, 720, 1440};

    private SyntheticWorkload() {}

    public static List<JobRequest> jobs(int count, Random random) {
        List<JobRequest> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(next(random));
        }
        return out;
    }

    public static JobRequest next(Random random) {
        int kind = random.nextInt(10);
        int uid = 1000 + random.nextInt(40);
        long limit = LIMITS[random.nextInt(LIMITS.length)];
        if (kind < 7) {
            return request(uid, "cpu", 1, TASKS[random.nextInt(TASKS.length)], "", limit);
        } else if (kind < 8) {
            int n = 2 << random.nextInt(4);
            return request(uid, "cpu", n, n * 64, "", limit);
        }
        return request(uid, "gpu", 1, 1, "gpu:" + (1 << random.nextInt(4)), limit);
    }

    /** A batch job of {@code tasks} one-CPU tasks on {@code nodes} nodes, 1 GiB per CPU. */
    public static JobRequest request(int uid, String partition, int nodes, int tasks, String gres, long limit) {
        return JobRequest.builder(new JobRequest.Owner(uid, uid, "user" + uid))
                .name("synthetic")
                .script("#!/bin/sh\ntrue\n")
                .workDir("/tmp")
                .minNodes(nodes)
                .numTasks(tasks)
                .cpusPerTask(1)
                .partition(partition)
                .timeLimitMinutes(limit)
                .submitHost("login1")
                .memPerCpuMb(1024)
                .gresPerNode(gres)
                .build();
    }
}
