package dev.sluice.packaging.sim;

import dev.sluice.ctld.sched.SchedulePlan;
import dev.sluice.ctld.sched.Scheduler;
import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobRequest;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * {@code sluice scale}: how the controller copes with a big cluster and a deep queue. Starts a
 * {@link SimulatedCluster} of N nodes (default 10,000: nine in ten CPU nodes with 64 cores, one
 * in ten GPU nodes with 8 GPUs), submits M jobs (default 100,000) of a seeded mix of shapes in
 * one go, lets the controller start what fits, then times scheduling passes over the resulting
 * queue (the pure {@link Scheduler} over the published image, and a full controller batch:
 * pass, journal sync and image publication) and measures the heap after a full GC.
 *
 * <p>The controller runs in this JVM, so the heap figure is the controller's state plus this
 * harness's small bookkeeping.
 */
public final class ScaleHarness {
    private ScaleHarness() {}

    /** What one run measured. */
    public record Report(
            int nodes,
            int jobs,
            long submitMillis,
            int running,
            int pending,
            double passMillisMedian,
            double passMillisMax,
            double passCpuMillisMedian,
            int passStarts,
            double batchMillisMedian,
            long heapMb) {
        public void print(PrintStream out) {
            out.printf("nodes                          %,d%n", nodes);
            out.printf("jobs submitted                 %,d%n", jobs);
            out.printf("submit + first pass (ms)       %,d%n", submitMillis);
            out.printf("running / pending after        %,d / %,d%n", running, pending);
            out.printf("scheduling pass, median (ms)   %.1f%n", passMillisMedian);
            out.printf("scheduling pass, max (ms)      %.1f%n", passMillisMax);
            out.printf("scheduling pass, CPU (ms)      %.1f%n", passCpuMillisMedian);
            out.printf("starts found by that pass      %,d%n", passStarts);
            out.printf("controller batch, median (ms)  %.1f%n", batchMillisMedian);
            out.printf("heap after GC (MiB)            %,d%n", heapMb);
        }
    }

    public static void main(String[] args) throws Exception {
        int nodes = 10_000;
        int jobs = 100_000;
        long seed = 1;
        int passes = 5;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--nodes" -> nodes = Integer.parseInt(args[++i]);
                case "--jobs" -> jobs = Integer.parseInt(args[++i]);
                case "--seed" -> seed = Long.parseLong(args[++i]);
                case "--passes" -> passes = Integer.parseInt(args[++i]);
                default -> {
                    System.err.println("usage: sluice scale [--nodes N] [--jobs M] [--seed S] [--passes P]");
                    System.exit(2);
                }
            }
        }
        Path work = Files.createTempDirectory(
                "sluice-scale",
                java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                        dev.sluice.common.files.OwnerOnly.DIRECTORY_MODE));
        try {
            run(work, nodes, jobs, seed, passes).print(System.out);
        } finally {
            SimulatedCluster.deleteTree(work);
        }
        System.exit(0);
    }

    public static Report run(Path work, int nodeCount, int jobCount, long seed, int passes) throws Exception {
        if (nodeCount < 10 || jobCount < 1 || passes < 1) {
            throw new IllegalArgumentException("need at least 10 nodes, 1 job and 1 pass");
        }
        int gpuNodes = nodeCount / 10;
        Path conf = writeConf(work, nodeCount - gpuNodes, gpuNodes);
        try (SimulatedCluster cluster = SimulatedCluster.start(conf, work, Instant.ofEpochSecond(1_700_000_000L))) {
            cluster.patience(3600);
            List<JobRequest> requests = SyntheticWorkload.jobs(jobCount, new Random(seed));
            long t0 = System.nanoTime();
            cluster.submitAll(requests);
            cluster.settle();
            long submitMillis = (System.nanoTime() - t0) / 1_000_000;
            requests = null;
            ClusterImage image = cluster.image();
            Scheduler scheduler = new Scheduler(cluster.config().scheduler());
            long now = cluster.clock().instant().getEpochSecond();
            double[] pass = new double[passes];
            double[] passCpu = new double[passes];
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            int starts = 0;
            for (int i = 0; i < passes; i++) {
                long s = System.nanoTime();
                long c = threads.getCurrentThreadCpuTime();
                SchedulePlan plan = scheduler.schedule(image, now);
                passCpu[i] = (threads.getCurrentThreadCpuTime() - c) / 1e6;
                pass[i] = (System.nanoTime() - s) / 1e6;
                starts = plan.starts().size();
            }
            double[] batch = new double[passes];
            for (int i = 0; i < passes; i++) {
                long s = System.nanoTime();
                // One empty command: the loop still runs a pass, syncs and publishes an image.
                cluster.clock().advanceSeconds(1);
                cluster.settle();
                batch[i] = (System.nanoTime() - s) / 1e6 / 2;
            }
            image = null;
            int running = 0;
            int pending = 0;
            for (Job job : cluster.image().jobs()) {
                if (job.isRunning()) {
                    running++;
                } else if (job.isPending()) {
                    pending++;
                }
            }
            long heap = heapAfterGc();
            Arrays.sort(pass);
            Arrays.sort(passCpu);
            Arrays.sort(batch);
            return new Report(
                    nodeCount,
                    jobCount,
                    submitMillis,
                    running,
                    pending,
                    pass[passes / 2],
                    pass[passes - 1],
                    passCpu[passes / 2],
                    starts,
                    batch[passes / 2],
                    heap);
        }
    }

    private static long heapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / (1024 * 1024);
    }

    private static Path writeConf(Path dir, int cpuNodes, int gpuNodes) throws Exception {
        String conf = String.join(
                "\n",
                "ClusterName=scale",
                "SlurmctldHost=localhost",
                "SelectType=select/cons_tres",
                "SelectTypeParameters=CR_Core_Memory",
                "GresTypes=gpu",
                "NodeName=DEFAULT Sockets=2 CoresPerSocket=32 ThreadsPerCore=1 RealMemory=256000",
                "NodeName=c[1-" + cpuNodes + "]",
                "NodeName=g[1-" + gpuNodes + "] Gres=gpu:8 Feature=gpu",
                "PartitionName=cpu Nodes=c[1-" + cpuNodes + "] Default=YES MaxTime=UNLIMITED",
                "PartitionName=gpu Nodes=g[1-" + gpuNodes + "] MaxTime=UNLIMITED",
                "");
        Files.writeString(dir.resolve("gres.conf"), "Name=gpu Count=8 File=/dev/nvidia[0-7]\n");
        Path path = dir.resolve("slurm.conf");
        Files.writeString(path, conf);
        return path;
    }
}
