package dev.sluice.bench.ctld;

import dev.sluice.bench.daemon.BenchArgs;
import dev.sluice.bench.daemon.ChildDaemon;
import dev.sluice.common.slurm.SlurmLimits;
import dev.sluice.packaging.load.LocalConnection;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.SubmitBatchJobRequest;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The controller-bound benchmark ({@code scripts/bench-ctld}, docs/benchmarks.md): a real
 * sluice-ctld (and sluice-dbd, unless {@code --no-accounting}) as child processes, and {@link
 * SimulatedNodes} in this process, whose jobs end the moment they start. Submits jobs through the
 * controller's command socket with many requests in flight (or one array), and measures from the
 * first submission to the last completion the controller acknowledged: jobs/s, and CPU of the
 * controller and of sluice-dbd per job from /proc. A warm-up round of the same kind runs first,
 * unmeasured, since a freshly started JVM runs its code interpreted for a while.
 */
public final class CtldBench {
    private CtldBench() {}

    public static void main(String[] args) throws Exception {
        BenchOptions o = BenchArgs.parseOrExit("bench-ctld", BenchOptions.USAGE, () -> BenchOptions.parse(args));
        System.exit(run(o, System.out).ok() ? 0 : 1);
    }

    /**
     * One measured round.
     *
     * @param seconds from the first submission until the controller acknowledged the last end
     * @param accountedSeconds until, besides, sluice-dbd had acknowledged every accounting record
     *     of the round (the controller's outbox empty, sdiag's DBD Agent queue size 0); negative
     *     without accounting
     * @param dbServerCpuMs the database server's CPU over the round ({@code --db-pid}); negative
     *     when not measured
     */
    public record Round(
            int jobs,
            double seconds,
            double accountedSeconds,
            double ctldCpuMs,
            double dbdCpuMs,
            double benchCpuMs,
            double dbServerCpuMs,
            long failed) {
        public double jobsPerSecond() {
            return jobs / seconds;
        }

        /** The rate that accounting kept up with: jobs over {@link #accountedSeconds}. */
        public double accountedPerSecond() {
            return jobs / accountedSeconds;
        }

        public boolean ok() {
            return failed == 0;
        }
    }

    /** Runs the benchmark, printing a row per round to {@code out}; the last measured round. */
    public static Round run(BenchOptions o, PrintStream out) throws Exception {
        try (BenchCluster cluster = BenchCluster.start(o)) {
            SimulatedNodes nodes = cluster.nodes();
            ChildDaemon ctld = cluster.ctld();
            Path socket = cluster.socket();
            ChildDaemon dbd = cluster.dbd();
            out.printf(
                    Locale.ROOT,
                    "bench-ctld: %d simulated nodes x %d CPUs, %s, %s, %d in flight; ctld pid %d%s%n",
                    o.shape().nodes(),
                    o.shape().cpus(),
                    o.array() ? "one array per round" : "one job per submission",
                    o.accounting() ? "accounting through sluice-dbd" : "no accounting",
                    o.inFlight(),
                    ctld.pid(),
                    dbd != null ? ", dbd pid " + dbd.pid() : "");
            out.println(
                    "round      jobs    seconds    jobs/s  accounted/s  ctld ms/job  dbd ms/job  bench ms/job  load");
            Round last = null;
            if (o.warmup() > 0) {
                print(out, "warm-up", round(o, o.warmup(), socket, nodes, ctld, dbd));
            }
            if (o.daemons().jfr() != null) {
                // Over the measured rounds only: the warm-up runs much code before it is compiled.
                ctld.jcmd(
                        "JFR.start",
                        "name=bench-ctld",
                        "settings=profile",
                        "filename=" + o.daemons().jfr().toAbsolutePath());
            }
            for (int r = 1; r <= o.rounds(); r++) {
                last = round(o, o.jobs(), socket, nodes, ctld, dbd);
                print(out, "measured", last);
            }
            if (o.daemons().jfr() != null) {
                ctld.jcmd("JFR.stop", "name=bench-ctld");
                out.println("bench-ctld: JFR recording of sluice-ctld over the measured rounds: "
                        + o.daemons().jfr());
            }
            return last;
        }
    }

    private static void print(PrintStream out, String label, Round r) {
        out.printf(
                Locale.ROOT,
                "%-8s %7d %10.2f %9.0f %12s %12.3f %11s %13.3f  %s%s%n",
                label,
                r.jobs(),
                r.seconds(),
                r.jobsPerSecond(),
                r.accountedSeconds() < 0 ? "-" : String.format(Locale.ROOT, "%.0f", r.accountedPerSecond()),
                r.ctldCpuMs() / r.jobs(),
                r.dbdCpuMs() < 0 ? "-" : String.format(Locale.ROOT, "%.3f", r.dbdCpuMs() / r.jobs()),
                r.benchCpuMs() / r.jobs(),
                ChildDaemon.loadAverage(),
                r.failed() > 0 ? "  (" + r.failed() + " FAILED)" : "");
        if (r.dbServerCpuMs() >= 0) {
            out.printf(
                    Locale.ROOT,
                    "%-8s the database server besides: %.3f CPU ms/job%n",
                    "",
                    r.dbServerCpuMs() / r.jobs());
        }
    }

    /**
     * Submits {@code jobs} jobs as {@code o} says and waits until the simulated nodes have reported
     * them all ended: the round's wall time, and the CPU the daemons and this process used in it.
     */
    public static Round round(
            BenchOptions o, int jobs, Path socket, SimulatedNodes nodes, ChildDaemon ctld, ChildDaemon dbd)
            throws Exception {
        long doneBefore = nodes.completed();
        long failedBefore = nodes.failedReports();
        double ctld0 = ctld.cpuMillis();
        double dbd0 = dbd != null ? dbd.cpuMillis() : 0;
        double bench0 = ChildDaemon.selfCpuMillis();
        long dbPid = dbd != null ? o.daemons().dbPid() : 0;
        double db0 = dbPid > 0 ? ChildDaemon.cpuMillisOf(dbPid) : 0;
        long start = System.nanoTime();
        submit(o, jobs, socket);
        long deadline = start + o.timeout().toNanos();
        // Polls this process's own counter, so the wait adds nothing to the controller's work.
        while (nodes.completed() + nodes.failedReports() - doneBefore - failedBefore < jobs) {
            if (System.nanoTime() > deadline) {
                throw new IOException("only " + (nodes.completed() - doneBefore) + " of " + jobs + " jobs ended within "
                        + o.timeout().toSeconds() + " s");
            }
            ctld.checkAlive();
            Thread.sleep(10);
        }
        long end = System.nanoTime();
        long accounted = dbd != null ? outboxEmpty(socket, start + o.timeout().toNanos()) : 0;
        double ctldMs = ctld.cpuMillis() - ctld0;
        double benchMs = ChildDaemon.selfCpuMillis() - bench0;
        // sluice-dbd takes the records after the jobs end: its CPU counts until it is idle.
        double dbdMs = dbd != null ? dbd.cpuMillisWhenIdle() - dbd0 : -1;
        double dbMs = dbPid > 0 ? ChildDaemon.cpuMillisOf(dbPid) - db0 : -1;
        return new Round(
                jobs,
                (end - start) / 1e9,
                dbd != null ? (accounted - start) / 1e9 : -1,
                ctldMs,
                dbdMs,
                benchMs,
                dbMs,
                nodes.failedReports() - failedBefore);
    }

    /**
     * When the controller's accounting outbox was first seen empty (sdiag's DBD Agent queue
     * size, asked every 20 ms: the records reach sluice-dbd after the jobs end, in batches).
     */
    private static long outboxEmpty(Path socket, long deadline) throws IOException, InterruptedException {
        try (LocalConnection c = new LocalConnection(socket, self())) {
            while (true) {
                long now = System.nanoTime();
                var stats = c.call(ClientRequest.newBuilder()
                                .setGetStatistics(dev.sluice.protocol.v1.GetStatisticsRequest.getDefaultInstance()))
                        .getGetStatistics();
                if (stats.getDbdAgentQueue() == 0) {
                    return now;
                }
                if (now > deadline) {
                    throw new IOException(stats.getDbdAgentQueue() + " accounting records still unacknowledged");
                }
                Thread.sleep(20);
            }
        }
    }

    private static Identity self() {
        com.sun.security.auth.module.UnixSystem me = new com.sun.security.auth.module.UnixSystem();
        return Identity.newBuilder()
                .setUid((int) me.getUid())
                .setGid((int) me.getGid())
                .setUserName(me.getUsername())
                .setHost("localhost")
                .build();
    }

    private static void submit(BenchOptions o, int jobs, Path socket) throws Exception {
        Identity owner = self();
        JobSpec.Builder spec = JobSpec.newBuilder()
                .setName("bench-ctld")
                .setScript(com.google.protobuf.ByteString.copyFromUtf8(
                        "#!/bin/sh\n# This script was created by sbatch --wrap.\n\ntrue\n"))
                .setWrapped(true)
                .setWorkDir("/tmp")
                .setStdOut("/dev/null")
                .putEnvironment("PATH", com.google.protobuf.ByteString.copyFromUtf8("/usr/bin:/bin"))
                .setMinNodes(1)
                .setNumTasks(1)
                .setTimeLimitMinutes(SlurmLimits.NO_VAL32)
                .setOwner(owner)
                .setSubmitHost("localhost");
        if (o.array()) {
            try (LocalConnection c = new LocalConnection(socket, owner)) {
                c.call(ClientRequest.newBuilder()
                        .setSubmitBatchJob(
                                SubmitBatchJobRequest.newBuilder().setSpec(spec.setArray("0-" + (jobs - 1)))));
            }
            return;
        }
        JobSpec one = spec.build();
        AtomicInteger next = new AtomicInteger();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Thread> submitters = new ArrayList<>();
        for (int k = 0; k < Math.min(o.inFlight(), jobs); k++) {
            LocalConnection c = new LocalConnection(socket, owner);
            submitters.add(Thread.ofVirtual().start(() -> {
                try (c) {
                    while (next.getAndIncrement() < jobs) {
                        c.call(ClientRequest.newBuilder()
                                .setSubmitBatchJob(
                                        SubmitBatchJobRequest.newBuilder().setSpec(one)));
                    }
                } catch (IOException | RuntimeException e) {
                    failures.add(e);
                }
            }));
        }
        for (Thread t : submitters) {
            t.join();
        }
        if (!failures.isEmpty()) {
            throw new IOException(
                    failures.size() + " submitters failed: " + failures.get(0).getMessage());
        }
    }
}
