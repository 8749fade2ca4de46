package dev.sluice.bench.ctld;

import dev.sluice.bench.daemon.BenchArgs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The options of {@code scripts/bench-ctld}.
 *
 * @param shape the simulated nodes: how many, and CPUs each
 * @param daemons how the daemons run and where their files go
 */
public record BenchOptions(
        Shape shape,
        int jobs,
        int warmup,
        int rounds,
        int inFlight,
        boolean array,
        boolean accounting,
        int minJobAge,
        Duration timeout,
        Daemons daemons) {

    public record Shape(int nodes, int cpus) {}

    /**
     * @param ctldJavaOptions more JVM options for sluice-ctld (e.g. a JFR recording)
     * @param dbdJavaOptions more JVM options for sluice-dbd
     * @param stateDir where the cluster's files go; null: a temporary directory, removed at the end
     * @param keep whether the state directory stays afterwards
     * @param jfr where a JFR recording of sluice-ctld over the measured rounds goes; null: none
     * @param jdbcUrl sluice-dbd's database (MariaDB, as a site runs it); null: its embedded H2
     * @param dbPid the database server's process, whose CPU per job is shown too; 0: none
     */
    public record Daemons(
            List<String> ctldJavaOptions,
            List<String> dbdJavaOptions,
            Path stateDir,
            boolean keep,
            Path jfr,
            String jdbcUrl,
            long dbPid) {
        public Daemons {
            ctldJavaOptions = List.copyOf(ctldJavaOptions);
            dbdJavaOptions = List.copyOf(dbdJavaOptions);
        }
    }

    static final String USAGE = "usage: bench-ctld [--nodes 50] [--cpus 64] [--jobs 20000] [--warmup 10000]"
            + " [--rounds 1] [--in-flight 64] [--array] [--no-accounting] [--min-job-age 10] [--timeout 600]"
            + " [--ctld-java-option OPT]... [--dbd-java-option OPT]... [--state-dir DIR] [--keep] [--jfr FILE]"
            + " [--jdbc-url URL [--db-pid PID]]";

    public static BenchOptions parse(String[] args) {
        int nodes = 50;
        int cpus = 64;
        int jobs = 20_000;
        int warmup = 10_000;
        int rounds = 1;
        int inFlight = 64;
        boolean array = false;
        boolean accounting = true;
        int minJobAge = 10;
        int timeout = 600;
        List<String> javaOptions = new ArrayList<>();
        List<String> dbdJavaOptions = new ArrayList<>();
        Path stateDir = null;
        Path jfr = null;
        boolean keep = false;
        String jdbcUrl = null;
        long dbPid = 0;
        BenchArgs a = new BenchArgs(
                args,
                Set.of("--array", "--no-accounting", "--keep"),
                Set.of(
                        "--nodes",
                        "--cpus",
                        "--jobs",
                        "--warmup",
                        "--rounds",
                        "--in-flight",
                        "--min-job-age",
                        "--timeout",
                        "--ctld-java-option",
                        "--dbd-java-option",
                        "--state-dir",
                        "--jfr",
                        "--jdbc-url",
                        "--db-pid"));
        while (a.next()) {
            switch (a.option()) {
                case "--array" -> array = true;
                case "--no-accounting" -> accounting = false;
                case "--keep" -> keep = true;
                case "--nodes" -> nodes = a.count(1);
                case "--cpus" -> cpus = a.count(1);
                case "--jobs" -> jobs = a.count(1);
                case "--warmup" -> warmup = a.count(0);
                case "--rounds" -> rounds = a.count(1);
                case "--in-flight" -> inFlight = a.count(1);
                case "--min-job-age" -> minJobAge = a.count(0);
                case "--timeout" -> timeout = a.count(1);
                case "--ctld-java-option" -> javaOptions.add(a.value());
                case "--dbd-java-option" -> dbdJavaOptions.add(a.value());
                case "--jfr" -> jfr = a.path();
                case "--state-dir" -> stateDir = a.path();
                case "--jdbc-url" -> jdbcUrl = a.value();
                case "--db-pid" -> dbPid = a.count(1);
            }
        }
        if (dbPid > 0 && (jdbcUrl == null || !accounting)) {
            // The embedded database runs inside sluice-dbd, whose CPU is shown already.
            throw new IllegalArgumentException("--db-pid needs --jdbc-url, with accounting");
        }
        return new BenchOptions(
                new Shape(nodes, cpus),
                jobs,
                warmup,
                rounds,
                inFlight,
                array,
                accounting,
                minJobAge,
                Duration.ofSeconds(timeout),
                new Daemons(javaOptions, dbdJavaOptions, stateDir, keep, jfr, jdbcUrl, dbPid));
    }
}
