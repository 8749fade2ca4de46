package dev.sluice.bench.rest;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * The load side of {@code scripts/bench-rest}, in a JVM of its own (so that it can be pinned
 * apart from the controller and its CPU told apart from sluice-restd's): C clients, each a virtual
 * thread with its own keep-alive TCP connection ({@link HttpPoller}) and its own token, polling
 * {@code GET /slurm/v0.0.44/jobs} every interval from a random phase (0: back to back).
 *
 * <p>Commanded on standard input, one word a line, each answered with one line on standard
 * output: {@code poll} (start polling), {@code pause} (stop, and wait for the requests in flight),
 * {@code mark} (counters to zero), {@code report} (the counters since the mark); end of input
 * exits. The clients live across rounds, so the rounds measure polling, not connecting and
 * compiling.
 *
 * <pre>
 * RestClients --port PORT --user NAME --tokens FILE [--clients 1000] [--interval-ms 1000]
 * </pre>
 */
public final class RestClients {
    private final int port;
    private final String user;
    private final List<String> tokens;
    private final long intervalNanos;
    private final Object gate = new Object();
    private volatile boolean polling;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final LongAdder answered = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder bytes = new LongAdder();
    private final LongAdder connects = new LongAdder();
    private final List<long[]> latencies = new ArrayList<>();
    private final List<HttpPoller> pollers = new ArrayList<>();
    private volatile long markedAt = System.nanoTime();

    private RestClients(int port, String user, List<String> tokens, long intervalNanos) {
        this.port = port;
        this.user = user;
        this.tokens = List.copyOf(tokens);
        this.intervalNanos = intervalNanos;
    }

    public static void main(String[] args) throws Exception {
        int port = -1;
        int clients = 1000;
        long intervalMs = 1000;
        String user = null;
        Path tokenFile = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[i + 1]);
                case "--user" -> user = args[i + 1];
                case "--tokens" -> tokenFile = Path.of(args[i + 1]);
                case "--clients" -> clients = Integer.parseInt(args[i + 1]);
                case "--interval-ms" -> intervalMs = Long.parseLong(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (port < 0 || user == null || tokenFile == null || clients < 1 || intervalMs < 0) {
            System.err.println(
                    "usage: RestClients --port PORT --user NAME --tokens FILE [--clients N] [--interval-ms MS]");
            System.exit(2);
        }
        List<String> tokens =
                Files.readAllLines(tokenFile).stream().filter(t -> !t.isBlank()).toList();
        RestClients r = new RestClients(port, user, tokens, intervalMs * 1_000_000L);
        r.start(clients);
        r.serve(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)));
        System.exit(0);
    }

    private void start(int clients) {
        for (int c = 0; c < clients; c++) {
            HttpPoller p =
                    new HttpPoller("127.0.0.1", port, "/slurm/v0.0.44/jobs", user, tokens.get(c % tokens.size()));
            pollers.add(p);
            long[] mine = new long[1];
            synchronized (latencies) {
                latencies.add(mine);
            }
            int seed = c;
            Thread.ofVirtual().name("client-" + c).start(() -> client(p, seed));
        }
    }

    private void serve(BufferedReader in) throws IOException, InterruptedException {
        String line;
        while ((line = in.readLine()) != null) {
            String answer = switch (line.strip()) {
                case "poll" -> {
                    synchronized (gate) {
                        polling = true;
                        gate.notifyAll();
                    }
                    yield "polling";
                }
                case "pause" -> {
                    polling = false;
                    long deadline = System.nanoTime() + 120_000_000_000L;
                    while (inFlight.get() > 0 && System.nanoTime() < deadline) {
                        // The requests in flight end when restd answers: nothing to wait on here.
                        Thread.sleep(10);
                    }
                    yield "paused in_flight=" + inFlight.get();
                }
                case "mark" -> {
                    mark();
                    yield "marked";
                }
                case "report" -> report();
                default -> "unknown command " + line;
            };
            System.out.println(answer);
            System.out.flush();
        }
        for (HttpPoller p : pollers) {
            p.close();
        }
    }

    private void client(HttpPoller p, int seed) {
        java.util.Random random = new java.util.Random(seed);
        while (true) {
            synchronized (gate) {
                while (!polling) {
                    try {
                        gate.wait();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
            // A random phase on every start, so that the clients' polls spread over the interval.
            long next = System.nanoTime() + (intervalNanos > 0 ? (long) (random.nextDouble() * intervalNanos) : 0);
            while (polling) {
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                    continue;
                }
                if (!polling) {
                    break;
                }
                inFlight.incrementAndGet();
                long t0 = System.nanoTime();
                try {
                    HttpPoller.Answer a = p.get();
                    long took = System.nanoTime() - t0;
                    if (a.status() == 200) {
                        answered.increment();
                        bytes.add(a.bytes());
                        record(seed, took);
                    } else {
                        failed.increment();
                    }
                    connects.add(a.connects());
                } catch (IOException e) {
                    failed.increment();
                    p.close();
                    // A daemon that refuses at once must not be hammered in a loop.
                    LockSupport.parkNanos(100_000_000L);
                } finally {
                    inFlight.decrementAndGet();
                }
                long now = System.nanoTime();
                // Fixed rate; a client that fell a whole interval behind starts afresh from now.
                next = intervalNanos == 0 ? now : Math.max(next + intervalNanos, now - intervalNanos);
            }
        }
    }

    private void record(int client, long nanos) {
        synchronized (latencies) {
            long[] mine = latencies.get(client);
            int n = (int) mine[0];
            if (n + 1 >= mine.length) {
                mine = Arrays.copyOf(mine, Math.max(16, mine.length * 2));
                latencies.set(client, mine);
            }
            mine[n + 1] = nanos;
            mine[0] = n + 1;
        }
    }

    private void mark() {
        synchronized (latencies) {
            for (long[] l : latencies) {
                l[0] = 0;
            }
        }
        answered.reset();
        failed.reset();
        bytes.reset();
        connects.reset();
        markedAt = System.nanoTime();
    }

    private String report() {
        long[] all;
        synchronized (latencies) {
            int total = 0;
            for (long[] l : latencies) {
                total += (int) l[0];
            }
            all = new long[total];
            int at = 0;
            for (long[] l : latencies) {
                System.arraycopy(l, 1, all, at, (int) l[0]);
                at += (int) l[0];
            }
        }
        Arrays.sort(all);
        double seconds = (System.nanoTime() - markedAt) / 1e9;
        return String.format(
                Locale.ROOT,
                "answered=%d failed=%d bytes=%d connects=%d seconds=%.3f p50_ms=%.2f p99_ms=%.2f max_ms=%.2f",
                answered.sum(),
                failed.sum(),
                bytes.sum(),
                connects.sum(),
                seconds,
                percentile(all, 0.50),
                percentile(all, 0.99),
                all.length == 0 ? 0 : all[all.length - 1] / 1e6);
    }

    /** Nearest rank, in ms; 0 for no samples. */
    static double percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(p * sorted.length);
        return sorted[Math.max(0, rank - 1)] / 1e6;
    }
}
