package dev.sluice.bench.rest;

import com.sun.security.auth.module.UnixSystem;
import dev.sluice.bench.ctld.BenchCluster;
import dev.sluice.bench.ctld.CtldBench;
import dev.sluice.bench.daemon.BenchArgs;
import dev.sluice.bench.daemon.ChildDaemon;
import dev.sluice.bench.daemon.DaemonCommands;
import dev.sluice.packaging.load.LocalConnection;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.GenerateTokenRequest;
import dev.sluice.protocol.v1.GetStatisticsRequest;
import dev.sluice.protocol.v1.GetStatisticsResponse;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.ResetStatisticsRequest;
import dev.sluice.protocol.v1.RpcCount;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What REST pollers cost the scheduler ({@code scripts/bench-rest}, docs/benchmarks.md, issue
 * 25): the controller-bound cluster of {@code scripts/bench-ctld} (a real sluice-ctld and
 * sluice-dbd, simulated nodes whose jobs end at once) with a real sluice-restd before it, and
 * {@link RestClients} in a JVM of their own. Rounds of the same jobs alternate without clients
 * and with them polling {@code GET /slurm/v0.0.44/jobs}, starting and ending without, so that
 * each polled round is compared with the rounds on either side of it and a slow drift of the
 * machine cancels. Each round: jobs/s, the controller's scheduling passes (sdiag's, reset before
 * it), CPU of each process, and in the polled ones the answers, their latency and restd's CPU
 * per answer.
 */
public final class RestBench {
    private RestBench() {}

    public static void main(String[] args) throws Exception {
        RestOptions o = BenchArgs.parseOrExit("bench-rest", RestOptions.USAGE, () -> RestOptions.parse(args));
        // Interrupted, the daemons and the clients must not outlive the benchmark.
        Runtime.getRuntime()
                .addShutdownHook(
                        new Thread(() -> ProcessHandle.current().descendants().forEach(ProcessHandle::destroy)));
        Result r = run(o, System.out);
        System.exit(r.failed() == 0 ? 0 : 1);
    }

    /** The controller's scheduling passes in a round (sdiag), and the job listings it served. */
    public record Passes(int count, double meanMs, double maxMs, long listings) {}

    /**
     * One round.
     *
     * @param polls what the clients got; null in a round without them
     */
    public record Round(
            boolean polled,
            CtldBench.Round jobs,
            Passes passes,
            ClientsProcess.Polls polls,
            double restdCpuMs,
            double clientsCpuMs,
            String loadBefore) {}

    /** Every round, in the order run. */
    public record Result(List<Round> rounds) {
        public long failed() {
            return rounds.stream().mapToLong(r -> r.jobs().failed()).sum()
                    + rounds.stream()
                            .filter(Round::polled)
                            .filter(r -> r.polls() != null)
                            .mapToLong(r -> r.polls().failed())
                            .sum();
        }

        /** Each polled round's jobs/s over the mean of the rounds without clients on either side. */
        public List<Double> ratios() {
            List<Double> out = new ArrayList<>();
            for (int i = 1; i + 1 < rounds.size(); i += 2) {
                double around = (rounds.get(i - 1).jobs().jobsPerSecond()
                                + rounds.get(i + 1).jobs().jobsPerSecond())
                        / 2;
                out.add(rounds.get(i).jobs().jobsPerSecond() / around);
            }
            return out;
        }

        /** sluice-ctld's CPU ms per job over the rounds with or without clients. */
        public double ctldMsPerJob(boolean polled) {
            double ms = 0;
            long jobs = 0;
            for (Round r : rounds) {
                if (r.polled() == polled) {
                    ms += r.jobs().ctldCpuMs();
                    jobs += r.jobs().jobs();
                }
            }
            return jobs == 0 ? 0 : ms / jobs;
        }

        /**
         * What one job listing cost sluice-ctld: its CPU in the polled rounds beyond what their jobs
         * cost in the rounds without clients, over the listings it served in them.
         */
        public double ctldMsPerListing() {
            long jobs = 0;
            long listings = 0;
            double ms = 0;
            for (Round r : rounds) {
                if (r.polled()) {
                    jobs += r.jobs().jobs();
                    listings += r.passes().listings();
                    ms += r.jobs().ctldCpuMs();
                }
            }
            return listings == 0 ? 0 : (ms - jobs * ctldMsPerJob(false)) / listings;
        }

        public double meanJobsPerSecond(boolean polled) {
            return rounds.stream()
                    .filter(r -> r.polled() == polled)
                    .mapToDouble(r -> r.jobs().jobsPerSecond())
                    .average()
                    .orElse(0);
        }
    }

    public static Result run(RestOptions o, PrintStream out) throws Exception {
        List<String> login = List.of();
        int cpus = Runtime.getRuntime().availableProcessors();
        String pinned = cpus + " CPUs, not pinned";
        if (o.pin()) {
            int last = cpus - 1;
            if (last < 1) {
                throw new IllegalArgumentException("--pin needs two CPUs");
            }
            // This process and so every daemon it starts; restd and the clients get the others.
            taskset(
                    "-a",
                    "-p",
                    "-c",
                    Integer.toString(last),
                    Long.toString(ProcessHandle.current().pid()));
            login = List.of("taskset", "-c", last == 1 ? "0" : "0-" + (last - 1));
            pinned = cpus + " CPUs: controller side on CPU " + last + ", restd and clients on CPU " + login.get(2);
        }
        try (BenchCluster cluster = BenchCluster.start(o.cluster())) {
            Path logs = cluster.layout().logDir();
            ChildDaemon restd = ChildDaemon.start(
                    "sluice-restd",
                    logs.resolve("restd.log"),
                    DaemonCommands.restd(
                            login,
                            cluster.layout().slurmConfPath(),
                            cluster.layout().portsFile("restd")));
            try {
                int port = restd.awaitPorts(cluster.layout().portsFile("restd")).get("port");
                Identity me = me();
                List<String> tokens = tokens(cluster.socket(), me, o.tokens());
                try (ClientsProcess clients = ClientsProcess.start(
                        login,
                        port,
                        me.getUserName(),
                        tokens,
                        o,
                        cluster.layout().stateDir())) {
                    return rounds(o, cluster, restd, clients, new Login(login, pinned), out);
                }
            } finally {
                restd.stop();
            }
        }
    }

    /** Where sluice-restd and the clients run: the command prefix (taskset), and in words. */
    private record Login(List<String> prefix, String pinned) {}

    private static Result rounds(
            RestOptions o,
            BenchCluster cluster,
            ChildDaemon restd,
            ClientsProcess clients,
            Login login,
            PrintStream out)
            throws Exception {
        String pinned =
                login.pinned() + (o.placebo() ? "; PLACEBO: busy loops on restd's CPUs instead of clients" : "");
        var c = o.cluster();
        out.printf(
                Locale.ROOT,
                "bench-rest: %d simulated nodes x %d CPUs, %s, %d jobs a round (%d in flight), MinJobAge=%d;"
                        + " %d REST clients (%d tokens), each its own connection, polling GET /slurm/v0.0.44/jobs %s;"
                        + " %s; ctld pid %d, restd pid %d, clients pid %d%n",
                c.shape().nodes(),
                c.shape().cpus(),
                c.accounting() ? "accounting through sluice-dbd" : "no accounting",
                c.jobs(),
                c.inFlight(),
                c.minJobAge(),
                o.clients(),
                o.tokens(),
                o.intervalMs() == 0 ? "back to back" : "every " + o.intervalMs() + " ms",
                pinned,
                cluster.ctld().pid(),
                restd.pid(),
                clients.pid());
        if (c.warmup() > 0) {
            // Both sides compiled before the first measured round: the controller's job path and
            // its listing, restd's, and the clients'.
            clients.poll();
            CtldBench.round(c, c.warmup(), cluster.socket(), cluster.nodes(), cluster.ctld(), cluster.dbd());
            clients.pause();
            out.println("bench-rest: warm-up of " + c.warmup() + " jobs, clients polling, done");
        }
        if (c.daemons().jfr() != null) {
            cluster.ctld()
                    .jcmd(
                            "JFR.start",
                            "name=bench-rest",
                            "settings=profile",
                            "filename=" + c.daemons().jfr().toAbsolutePath());
        }
        RoundTable table = new RoundTable(out);
        table.header();
        List<Round> rounds = new ArrayList<>();
        for (int i = 0; i < 2 * o.rounds() + 1; i++) {
            Round r = round(o, cluster, restd, clients, login.prefix(), i % 2 == 1);
            rounds.add(r);
            table.row(r);
        }
        if (c.daemons().jfr() != null) {
            cluster.ctld().jcmd("JFR.stop", "name=bench-rest");
            out.println("bench-rest: JFR recording of sluice-ctld over the measured rounds: "
                    + c.daemons().jfr());
        }
        Result result = new Result(rounds);
        table.summary(result);
        return result;
    }

    private static Round round(
            RestOptions o,
            BenchCluster cluster,
            ChildDaemon restd,
            ClientsProcess clients,
            List<String> loginPrefix,
            boolean polled)
            throws Exception {
        if (polled && o.placebo()) {
            return placebo(o, cluster, loginPrefix);
        }
        if (polled) {
            clients.poll();
            // Every client connected and polling at its pace before the jobs come.
            Thread.sleep(o.settle().toMillis());
        }
        String load = ChildDaemon.loadAverage();
        statistics(cluster.socket(), true);
        double restd0 = restd.cpuMillis();
        double clients0 = clients.cpuMillis();
        clients.mark();
        CtldBench.Round jobs = CtldBench.round(
                o.cluster(), o.cluster().jobs(), cluster.socket(), cluster.nodes(), cluster.ctld(), cluster.dbd());
        ClientsProcess.Polls polls = null;
        if (polled) {
            // The requests in flight at the round's end are counted: a slow answer is one too.
            clients.pause();
            polls = clients.report();
        }
        double restdMs = restd.cpuMillis() - restd0;
        double clientsMs = clients.cpuMillis() - clients0;
        GetStatisticsResponse s = statistics(cluster.socket(), false);
        long listings = s.getByTypeList().stream()
                .filter(t -> t.getName().equals("REQUEST_JOB_INFO"))
                .mapToLong(RpcCount::getCount)
                .sum();
        Passes passes = new Passes(
                s.getCycles(),
                s.getCycles() == 0 ? 0 : s.getCycleSumMicros() / 1000.0 / s.getCycles(),
                s.getCycleMaxMicros() / 1000.0,
                listings);
        return new Round(polled, jobs, passes, polls, restdMs, clientsMs, load);
    }

    /**
     * The control experiment's round: no REST, but one busy loop per CPU restd and the clients
     * would have, taking that CPU as they do. If jobs/s falls as much as with the clients, it is the
     * machine (other work pushed onto the controller's CPU), not REST, that slows the controller.
     */
    private static Round placebo(RestOptions o, BenchCluster cluster, List<String> loginPrefix) throws Exception {
        List<Process> loops = new ArrayList<>();
        int cpus = o.pin() ? Runtime.getRuntime().availableProcessors() : 1;
        try {
            for (int i = 0; i < Math.max(1, cpus); i++) {
                List<String> c = new ArrayList<>(loginPrefix);
                c.addAll(List.of("sh", "-c", "while :; do :; done"));
                loops.add(new ProcessBuilder(c).start());
            }
            Thread.sleep(o.settle().toMillis());
            String load = ChildDaemon.loadAverage();
            statistics(cluster.socket(), true);
            CtldBench.Round jobs = CtldBench.round(
                    o.cluster(), o.cluster().jobs(), cluster.socket(), cluster.nodes(), cluster.ctld(), cluster.dbd());
            GetStatisticsResponse s = statistics(cluster.socket(), false);
            Passes passes = new Passes(
                    s.getCycles(),
                    s.getCycles() == 0 ? 0 : s.getCycleSumMicros() / 1000.0 / s.getCycles(),
                    s.getCycleMaxMicros() / 1000.0,
                    0);
            return new Round(true, jobs, passes, null, 0, 0, load);
        } finally {
            loops.forEach(Process::destroyForcibly);
        }
    }

    /** sdiag's numbers; {@code reset}: sdiag -r instead (its numbers count from there). */
    private static GetStatisticsResponse statistics(Path socket, boolean reset) throws IOException {
        try (LocalConnection c = new LocalConnection(socket, me())) {
            if (reset) {
                c.call(ClientRequest.newBuilder().setResetStatistics(ResetStatisticsRequest.getDefaultInstance()));
                return null;
            }
            return c.call(ClientRequest.newBuilder().setGetStatistics(GetStatisticsRequest.getDefaultInstance()))
                    .getGetStatistics();
        }
    }

    /** {@code count} different tokens of this user, as {@code scontrol token} makes them. */
    private static List<String> tokens(Path socket, Identity me, int count) throws IOException {
        List<String> tokens = new ArrayList<>();
        try (LocalConnection c = new LocalConnection(socket, me)) {
            for (int i = 0; i < count; i++) {
                // A token names its expiry: a lifespan a second apart makes each one different.
                tokens.add(c.call(ClientRequest.newBuilder()
                                .setGenerateToken(
                                        GenerateTokenRequest.newBuilder().setLifespanSeconds(86_400L + i)))
                        .getGenerateToken()
                        .getToken());
            }
        }
        return tokens;
    }

    private static Identity me() {
        UnixSystem u = new UnixSystem();
        return Identity.newBuilder()
                .setUid((int) u.getUid())
                .setGid((int) u.getGid())
                .setUserName(u.getUsername())
                .setHost("localhost")
                .build();
    }

    private static void taskset(String... args) throws IOException, InterruptedException {
        List<String> c = new ArrayList<>(List.of("taskset"));
        c.addAll(List.of(args));
        Process p = new ProcessBuilder(c).redirectErrorStream(true).start();
        String said = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IOException("taskset " + String.join(" ", args) + " failed: " + said.strip());
        }
    }
}
