package dev.sluice.packaging.load;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Many REST clients polling {@code GET /slurm/v0.0.44/jobs} at once, each on a virtual thread,
 * one request after another, as dashboards do, until SIGTERM; every second a line of the totals so
 * far ({@code polls=N failed=F rate=R/s}) on stdout. By hand: all clients share one token and
 * the JDK HttpClient's connections; {@code scripts/bench-rest} now uses the bench module's
 * {@code RestClients} (a connection and a token each). The first bench-rest figures in
 * docs/benchmarks.md were taken with this.
 *
 * <pre>
 * RestPollers --url http://127.0.0.1:PORT --token JWT [--clients 1000]
 * </pre>
 */
public final class RestPollers {
    private RestPollers() {}

    public static void main(String[] args) throws Exception {
        String url = null;
        String token = null;
        int clients = 1000;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--url" -> url = args[i + 1];
                case "--token" -> token = args[i + 1];
                case "--clients" -> clients = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (url == null || token == null || clients < 1) {
            System.err.println("usage: RestPollers --url URL --token JWT [--clients N]");
            System.exit(2);
        }
        HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .executor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor())
                .connectTimeout(Duration.ofSeconds(10))
                .build();
        HttpRequest poll = HttpRequest.newBuilder(URI.create(url + "/slurm/v0.0.44/jobs"))
                .header("X-SLURM-USER-TOKEN", token)
                .timeout(Duration.ofSeconds(60))
                .build();
        final int n = clients;
        AtomicLong polls = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        long started = System.nanoTime();
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(stop::countDown));
        for (int c = 0; c < clients; c++) {
            Thread.ofVirtual().start(() -> {
                while (stop.getCount() > 0) {
                    try {
                        HttpResponse<Void> r = http.send(poll, HttpResponse.BodyHandlers.discarding());
                        (r.statusCode() == 200 ? polls : failed).incrementAndGet();
                    } catch (Exception e) {
                        failed.incrementAndGet();
                        // A daemon that is gone refuses at once: back off rather than spin.
                        java.util.concurrent.locks.LockSupport.parkNanos(100_000_000L);
                    }
                }
            });
        }
        // A line a second, the totals so far: whoever stops this reads the last one.
        while (!stop.await(1, java.util.concurrent.TimeUnit.SECONDS)) {
            double seconds = (System.nanoTime() - started) / 1e9;
            System.out.printf(
                    "polls=%d failed=%d rate=%.0f/s clients=%d%n", polls.get(), failed.get(), polls.get() / seconds, n);
            System.out.flush();
        }
    }
}
