package dev.sluice.bench.dbd;

import dev.sluice.bench.daemon.BenchArgs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The options of {@code scripts/bench-dbd}.
 *
 * @param jdbcUrl the accounting database; null: sluice-dbd's embedded H2 in a temporary directory
 * @param batch records per gRPC call (the controller's outbox ships up to 500)
 * @param inFlight jobs between submission and end, which sets how the lifecycles interleave
 * @param dbdJavaOptions more JVM options for sluice-dbd
 * @param jfr where a JFR recording of sluice-dbd over the measured rounds goes; null: none
 */
public record DbdBenchOptions(
        String jdbcUrl,
        int jobs,
        int warmup,
        int rounds,
        int batch,
        int inFlight,
        List<String> dbdJavaOptions,
        Path jfr) {
    public DbdBenchOptions {
        dbdJavaOptions = List.copyOf(dbdJavaOptions);
    }

    static final String USAGE = "usage: bench-dbd [--jdbc-url URL | --h2] [--jobs 10000] [--warmup 10000]"
            + " [--rounds 3] [--batch 500] [--in-flight 64] [--dbd-java-option OPT]... [--jfr FILE]";

    /** @param envUrl {@code SLUICE_TEST_JDBC_URL}, the default database when given */
    static DbdBenchOptions parse(String[] args, String envUrl) {
        String url = envUrl == null || envUrl.isBlank() ? null : envUrl;
        int jobs = 10_000;
        int warmup = 10_000;
        int rounds = 3;
        int batch = 500;
        int inFlight = 64;
        List<String> dbdJavaOptions = new ArrayList<>();
        Path jfr = null;
        BenchArgs a = new BenchArgs(
                args,
                Set.of("--h2"),
                Set.of(
                        "--jdbc-url",
                        "--jobs",
                        "--warmup",
                        "--rounds",
                        "--batch",
                        "--in-flight",
                        "--dbd-java-option",
                        "--jfr"));
        while (a.next()) {
            switch (a.option()) {
                case "--h2" -> url = null;
                case "--jdbc-url" -> url = a.value();
                case "--jobs" -> jobs = a.count(1);
                case "--warmup" -> warmup = a.count(0);
                case "--rounds" -> rounds = a.count(1);
                case "--batch" -> batch = a.count(1);
                case "--in-flight" -> inFlight = a.count(1);
                case "--dbd-java-option" -> dbdJavaOptions.add(a.value());
                case "--jfr" -> jfr = a.path();
            }
        }
        return new DbdBenchOptions(url, jobs, warmup, rounds, batch, inFlight, dbdJavaOptions, jfr);
    }
}
