package dev.sluice.bench.dbd;

import dev.sluice.bench.daemon.BenchArgs;
import dev.sluice.bench.daemon.ChildDaemon;
import dev.sluice.bench.daemon.DaemonCommands;
import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.protocol.auth.DaemonAuth;
import dev.sluice.protocol.v1.AccountingAck;
import dev.sluice.protocol.v1.AccountingBatch;
import dev.sluice.protocol.v1.AccountingGrpc;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The accounting daemon's benchmark ({@code scripts/bench-dbd}, docs/benchmarks.md): starts a
 * real sluice-dbd as a child process (as installed: C1 only, serial GC) on MariaDB or its embedded
 * H2, and sends it job lifecycles' records ({@link Lifecycles}) as the controller's {@code
 * OutboxShipper} does: one signed {@code Record} call at a time, the next after the ack. A round
 * runs from the first call to the last ack (sluice-dbd acks once the batch is committed); its
 * CPU is the change of the daemon's user+system time in /proc over the round, per job. A
 * warm-up round runs first, unmeasured. At the end one batch of the last round is sent again,
 * as after a lost ack, and must change nothing: the ack stays, and (on MariaDB) the cluster's
 * job and step rows are exactly the jobs sent, each ended.
 */
public final class DbdBench {
    private DbdBench() {}

    public static void main(String[] args) throws Exception {
        run(
                BenchArgs.parseOrExit(
                        "bench-dbd",
                        DbdBenchOptions.USAGE,
                        () -> DbdBenchOptions.parse(args, System.getenv("SLUICE_TEST_JDBC_URL"))),
                System.out);
    }

    /** One round: jobs, seconds from first call to last ack, sluice-dbd's CPU ms over it. */
    public record Round(int jobs, int batches, double seconds, double dbdCpuMs) {
        public double jobsPerSecond() {
            return jobs / seconds;
        }

        public double cpuMsPerJob() {
            return dbdCpuMs / jobs;
        }
    }

    /** Runs the benchmark, printing a row per round to {@code out}; the last measured round. */
    public static Round run(DbdBenchOptions o, PrintStream out) throws Exception {
        Path dir = Files.createTempDirectory("bench-dbd-");
        ChildDaemon dbd = null;
        ManagedChannel channel = null;
        try {
            Path key = dir.resolve(ClusterKeys.KEY_FILE);
            ClusterKeys.generate(key);
            Path conf = dir.resolve("slurmdbd.conf");
            Files.writeString(conf, "# bench-dbd: the database is --jdbc-url\n");
            dbd = ChildDaemon.start(
                    "sluice-dbd",
                    dir.resolve("dbd.log"),
                    DaemonCommands.dbd(
                            o.dbdJavaOptions(),
                            conf,
                            dir.resolve("dbd.ports"),
                            key,
                            o.jdbcUrl() != null
                                    ? List.of("--jdbc-url", o.jdbcUrl())
                                    : List.of("--data-dir", dir.resolve("db").toString())));
            int port = dbd.awaitPorts(dir.resolve("dbd.ports")).get("grpc");
            // The daemon rolls up every cluster's usage as it starts (a shared test database
            // holds many): that is not the records' cost.
            dbd.cpuMillisWhenIdle();
            channel = NettyChannelBuilder.forAddress("127.0.0.1", port)
                    .usePlaintext()
                    .build();
            AccountingGrpc.AccountingBlockingStub stub = AccountingGrpc.newBlockingStub(channel)
                    .withInterceptors(
                            DaemonAuth.forThisProcess(ClusterKeys.load(key), "bench-dbd", List.of(), Clock.systemUTC())
                                    .client(DaemonAuth.DBD));
            String cluster = "bench" + UUID.randomUUID().toString().substring(0, 8);
            Lifecycles lives = new Lifecycles(cluster, o.inFlight(), 1);
            out.printf(
                    Locale.ROOT,
                    "bench-dbd: sluice-dbd pid %d on %s, cluster %s; 5 records a job, %d records a call,"
                            + " %d jobs in flight%n",
                    dbd.pid(),
                    o.jdbcUrl() == null ? "embedded H2" : o.jdbcUrl().replaceAll("(?i)(password=)[^&;]*", "$1***"),
                    cluster,
                    o.batch(),
                    o.inFlight());
            out.println("round      jobs  calls    seconds    jobs/s  dbd ms/job  load");
            int nextJob = 1;
            if (o.warmup() > 0) {
                print(out, "warm-up", round(stub, dbd, lives, nextJob, o.warmup(), o.batch()));
                nextJob += o.warmup();
            }
            if (o.jfr() != null) {
                dbd.jcmd(
                        "JFR.start",
                        "name=bench-dbd",
                        "settings=profile",
                        "filename=" + o.jfr().toAbsolutePath());
            }
            Round last = null;
            List<AccountingBatch> lastBatches = List.of();
            for (int r = 1; r <= o.rounds(); r++) {
                lastBatches = lives.batches(nextJob, o.jobs(), o.batch());
                last = round(stub, dbd, lastBatches, o.jobs());
                nextJob += o.jobs();
                print(out, "measured", last);
            }
            if (o.jfr() != null) {
                dbd.jcmd("JFR.stop", "name=bench-dbd");
                out.println("bench-dbd: JFR recording of sluice-dbd over the measured rounds: " + o.jfr());
            }
            verify(o, stub, lastBatches.get(lastBatches.size() / 2), lives.nextSequence() - 1, cluster, nextJob - 1);
            out.println("bench-dbd: a batch sent again changed nothing (applied through " + (lives.nextSequence() - 1)
                    + (o.jdbcUrl() != null ? ", " + (nextJob - 1) + " jobs and batch steps stored, all ended)" : ")"));
            return last;
        } finally {
            if (channel != null) {
                channel.shutdownNow();
            }
            if (dbd != null) {
                dbd.stop();
            }
            ChildDaemon.deleteTree(dir);
        }
    }

    private static Round round(
            AccountingGrpc.AccountingBlockingStub stub,
            ChildDaemon dbd,
            Lifecycles lives,
            int first,
            int jobs,
            int batch)
            throws Exception {
        return round(stub, dbd, lives.batches(first, jobs, batch), jobs);
    }

    private static Round round(
            AccountingGrpc.AccountingBlockingStub stub, ChildDaemon dbd, List<AccountingBatch> batches, int jobs)
            throws Exception {
        double cpu0 = dbd.cpuMillis();
        long start = System.nanoTime();
        for (AccountingBatch b : batches) {
            long last = b.getRecords(b.getRecordsCount() - 1).getSequence();
            AccountingAck ack = stub.withDeadlineAfter(60, TimeUnit.SECONDS).record(b);
            if (ack.getAppliedThrough() != last) {
                throw new IOException("sluice-dbd acknowledged through " + ack.getAppliedThrough() + ", not " + last);
            }
        }
        long end = System.nanoTime();
        // The ack comes after the batch's commit: nothing of the round is left to count.
        return new Round(jobs, batches.size(), (end - start) / 1e9, dbd.cpuMillis() - cpu0);
    }

    /** A batch re-sent after a lost ack: the same ack, and (on MariaDB) the rows as they were. */
    private static void verify(
            DbdBenchOptions o,
            AccountingGrpc.AccountingBlockingStub stub,
            AccountingBatch again,
            long through,
            String cluster,
            int jobs)
            throws IOException, SQLException {
        AccountingAck ack = stub.withDeadlineAfter(60, TimeUnit.SECONDS).record(again);
        if (ack.getAppliedThrough() != through) {
            throw new IOException(
                    "a batch sent again was acknowledged through " + ack.getAppliedThrough() + ", not " + through);
        }
        if (o.jdbcUrl() == null) {
            return; // sluice-dbd holds the embedded database's file
        }
        try (Connection c = DriverManager.getConnection(o.jdbcUrl());
                PreparedStatement ps = c.prepareStatement("SELECT COUNT(*), SUM(CASE WHEN j.state = 'COMPLETED'"
                        + " THEN 1 ELSE 0 END), (SELECT COUNT(*) FROM steps s JOIN jobs sj ON sj.id = s.job_ref"
                        + " WHERE sj.cluster_id = k.id AND s.state = 'COMPLETED')"
                        + " FROM jobs j JOIN clusters k ON k.id = j.cluster_id WHERE k.name = ? GROUP BY k.id")) {
            ps.setString(1, cluster);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || rs.getLong(1) != jobs || rs.getLong(2) != jobs || rs.getLong(3) != jobs) {
                    throw new IOException("expected " + jobs + " ended jobs and batch steps in the database");
                }
            }
        }
    }

    private static void print(PrintStream out, String label, Round r) {
        out.printf(
                Locale.ROOT,
                "%-8s %7d %6d %10.2f %9.0f %11.3f  %s%n",
                label,
                r.jobs(),
                r.batches(),
                r.seconds(),
                r.jobsPerSecond(),
                r.cpuMsPerJob(),
                ChildDaemon.loadAverage());
    }
}
