package dev.sluice.bench.ctld;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

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
     */
    public record Daemons(
            List<String> ctldJavaOptions, List<String> dbdJavaOptions, Path stateDir, boolean keep, Path jfr) {
        public Daemons {
            ctldJavaOptions = List.copyOf(ctldJavaOptions);
            dbdJavaOptions = List.copyOf(dbdJavaOptions);
        }
    }

    static final String USAGE = "usage: bench-ctld [--nodes 50] [--cpus 64] [--jobs 20000] [--warmup 10000]"
            + " [--rounds 1] [--in-flight 64] [--array] [--no-accounting] [--min-job-age 10] [--timeout 600]"
            + " [--ctld-java-option OPT]... [--dbd-java-option OPT]... [--state-dir DIR] [--keep] [--jfr FILE]";

    static BenchOptions parse(String[] args) {
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
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--array" -> array = true;
                case "--no-accounting" -> accounting = false;
                case "--keep" -> keep = true;
                case "--nodes",
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
                        "--jfr" -> {
                    if (i + 1 >= args.length) {
                        throw new IllegalArgumentException(a + " needs a value");
                    }
                    String v = args[++i];
                    switch (a) {
                        case "--nodes" -> nodes = count(a, v, 1);
                        case "--cpus" -> cpus = count(a, v, 1);
                        case "--jobs" -> jobs = count(a, v, 1);
                        case "--warmup" -> warmup = count(a, v, 0);
                        case "--rounds" -> rounds = count(a, v, 1);
                        case "--in-flight" -> inFlight = count(a, v, 1);
                        case "--min-job-age" -> minJobAge = count(a, v, 0);
                        case "--timeout" -> timeout = count(a, v, 1);
                        case "--ctld-java-option" -> javaOptions.add(v);
                        case "--dbd-java-option" -> dbdJavaOptions.add(v);
                        case "--jfr" -> jfr = Path.of(v);
                        default -> stateDir = Path.of(v);
                    }
                }
                default -> throw new IllegalArgumentException("unknown option " + a);
            }
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
                new Daemons(javaOptions, dbdJavaOptions, stateDir, keep, jfr));
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
