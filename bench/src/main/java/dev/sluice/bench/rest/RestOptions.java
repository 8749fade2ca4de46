package dev.sluice.bench.rest;

import dev.sluice.bench.ctld.BenchOptions;
import dev.sluice.bench.daemon.BenchArgs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * The options of {@code scripts/bench-rest}.
 *
 * @param cluster the controller-bound cluster and its rounds' jobs, as {@code scripts/bench-ctld} takes them
 * @param clients REST clients polling in the polled rounds
 * @param intervalMs each client's poll interval (0: back to back, the worst case)
 * @param tokens how many different tokens the clients present (each its own: {@code clients})
 * @param rounds polled rounds; one more round without clients comes before each and after the last
 * @param settle how long the clients poll before a polled round's jobs are submitted
 * @param pin the controller side (sluice-ctld, sluice-dbd, the simulated nodes) on the last CPU,
 *     sluice-restd and the clients on the others
 * @param placebo the control experiment: in the rounds that would poll, no REST at all but a busy
 *     loop on each of restd's CPUs, as much CPU as restd and the clients take there
 */
public record RestOptions(
        BenchOptions cluster,
        int clients,
        int intervalMs,
        int tokens,
        int rounds,
        Duration settle,
        boolean pin,
        boolean placebo) {

    static final String USAGE = "usage: bench-rest [--smoke] [--clients 1000] [--interval-ms 1000] [--tokens CLIENTS]"
            + " [--rounds 3] [--settle 3] [--pin] [--placebo] [--nodes 50] [--cpus 64] [--jobs 10000] [--warmup 10000]"
            + " [--in-flight 64] [--no-accounting] [--min-job-age 2] [--timeout 600] [--state-dir DIR] [--keep]"
            + " [--jfr FILE]";

    /**
     * {@code --smoke}: 2 nodes, 100 jobs a round, 20 clients every 100 ms, one polled round, no
     * accounting, so that the whole run takes seconds (its options may still be overridden).
     */
    private static final List<String> SMOKE = List.of(
            "--nodes",
            "2",
            "--cpus",
            "4",
            "--jobs",
            "100",
            "--warmup",
            "50",
            "--clients",
            "20",
            "--interval-ms",
            "100",
            "--rounds",
            "1",
            "--settle",
            "1",
            "--no-accounting",
            "--timeout",
            "60");

    public static RestOptions parse(String[] given) {
        List<String> args = new ArrayList<>(Arrays.asList(given));
        if (args.remove("--smoke")) {
            args.addAll(0, SMOKE);
        }
        int clients = 1000;
        int intervalMs = 1000;
        int tokens = -1;
        int rounds = 3;
        int settle = 3;
        boolean pin = false;
        boolean placebo = false;
        List<String> cluster = new ArrayList<>(List.of("--jobs", "10000", "--warmup", "10000", "--min-job-age", "2"));
        BenchArgs a = new BenchArgs(
                args.toArray(String[]::new),
                Set.of("--pin", "--placebo", "--no-accounting", "--keep"),
                Set.of(
                        "--clients",
                        "--interval-ms",
                        "--tokens",
                        "--rounds",
                        "--settle",
                        "--nodes",
                        "--cpus",
                        "--jobs",
                        "--warmup",
                        "--in-flight",
                        "--min-job-age",
                        "--timeout",
                        "--state-dir",
                        "--jfr"));
        while (a.next()) {
            switch (a.option()) {
                case "--clients" -> clients = a.count(1);
                case "--interval-ms" -> intervalMs = a.count(0);
                case "--tokens" -> tokens = a.count(1);
                case "--rounds" -> rounds = a.count(1);
                case "--settle" -> settle = a.count(0);
                case "--pin" -> pin = true;
                case "--placebo" -> placebo = true;
                case "--no-accounting", "--keep" -> cluster.add(a.option());
                default -> cluster.addAll(List.of(a.option(), a.value()));
            }
        }
        BenchOptions c = BenchOptions.parse(cluster.toArray(String[]::new));
        if (c.array()) {
            throw new IllegalArgumentException("--array is not a bench-rest option");
        }
        return new RestOptions(
                c,
                clients,
                intervalMs,
                tokens < 0 ? clients : Math.min(tokens, clients),
                rounds,
                Duration.ofSeconds(settle),
                pin,
                placebo);
    }

    /** Where a JFR recording of sluice-ctld over the measured rounds goes; null: none. */
    Path jfr() {
        return cluster.daemons().jfr();
    }
}
