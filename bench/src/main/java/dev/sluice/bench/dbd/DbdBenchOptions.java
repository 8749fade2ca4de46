package dev.sluice.bench.dbd;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

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
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--h2")) {
                url = null;
                continue;
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(
                        a.startsWith("--") && USAGE.contains(a) ? a + " needs a value" : "unknown option " + a);
            }
            String v = args[++i];
            switch (a) {
                case "--jdbc-url" -> url = v;
                case "--jobs" -> jobs = count(a, v, 1);
                case "--warmup" -> warmup = count(a, v, 0);
                case "--rounds" -> rounds = count(a, v, 1);
                case "--batch" -> batch = count(a, v, 1);
                case "--in-flight" -> inFlight = count(a, v, 1);
                case "--dbd-java-option" -> dbdJavaOptions.add(v);
                case "--jfr" -> jfr = Path.of(v);
                default -> throw new IllegalArgumentException("unknown option " + a);
            }
        }
        return new DbdBenchOptions(url, jobs, warmup, rounds, batch, inFlight, dbdJavaOptions, jfr);
    }

    private static int count(String option, String value, int least) {
        int n;
        try {
            n = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " wants a number, not " + value);
        }
        if (n < least) {
            throw new IllegalArgumentException(option + " must be at least " + least);
        }
        return n;
    }
}
