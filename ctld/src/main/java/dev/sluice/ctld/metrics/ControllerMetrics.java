package dev.sluice.ctld.metrics;

import static java.util.Objects.requireNonNull;

import dev.sluice.ctld.loop.LoopTimings;
import dev.sluice.ctld.state.ClusterImage;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;
import java.io.IOException;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * Every series {@code sluice-ctld} exposes (see docs/operations.md). Gauges are computed from the
 * latest published image when scraped; histograms are fed by {@link #loopTimings()} and
 * {@link #rpcServed}, which only record a number and return.
 */
public final class ControllerMetrics implements AutoCloseable {
    private static final double NANOS_PER_SECOND = 1e9;
    // Loop work is sub-millisecond when idle and seconds under a 100k-job queue.
    private static final double[] LOOP_BOUNDS = {
        0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10
    };

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final Histogram schedulePass;
    private final Histogram journalSync;
    private final Histogram rpc;
    private HTTPServer server;

    /**
     * @param image the latest published image (never blocks)
     * @param outboxDepth accounting records not yet acknowledged by sluice-dbd; negative when
     *     accounting is off (the series is then absent)
     */
    public ControllerMetrics(Supplier<ClusterImage> image, IntSupplier outboxDepth, InstantSource clock) {
        requireNonNull(image, "image is null");
        requireNonNull(clock, "clock is null");
        requireNonNull(outboxDepth, "outboxDepth is null");
        gauge(
                "sluice_jobs",
                "Jobs the controller knows, by state and partition",
                image,
                ImageGauges::jobsByState,
                "state",
                "partition");
        gauge(
                "sluice_jobs_pending_reason",
                "Pending jobs by partition and the reason squeue prints",
                image,
                ImageGauges::pendingReasons,
                "partition",
                "reason");
        gauge("sluice_nodes", "Nodes by state, as sinfo %T prints it", image, ImageGauges::nodesByState, "state");
        gauge(
                "sluice_node_gres",
                "Configured generic resources per node, name and type",
                image,
                i -> ImageGauges.gres(i, false),
                "node",
                "name",
                "type");
        gauge(
                "sluice_node_gres_allocated",
                "Generic resources held by running jobs per node, name and type",
                image,
                i -> ImageGauges.gres(i, true),
                "node",
                "name",
                "type");
        gauge(
                "sluice_node_free_in_seconds",
                "Seconds until the jobs running on a node reach their time limits"
                        + " (0: idle, +Inf: a job without limit); scale-in candidates free soonest",
                image,
                i -> ImageGauges.freeIn(i, clock.instant().getEpochSecond()),
                "node");
        GaugeWithCallback.builder()
                .name("sluice_accounting_outbox_depth")
                .help("Accounting records not yet acknowledged by sluice-dbd")
                .callback(cb -> {
                    int depth = outboxDepth.getAsInt();
                    if (depth >= 0) {
                        cb.call(depth);
                    }
                })
                .register(registry);
        schedulePass = Histogram.builder()
                .name("sluice_scheduler_cycle_seconds")
                .help("Duration of one scheduling pass (main scheduler and backfill run as one pass)")
                .unit(Unit.SECONDS)
                .classicOnly()
                .classicUpperBounds(LOOP_BOUNDS)
                .register(registry);
        journalSync = Histogram.builder()
                .name("sluice_journal_sync_seconds")
                .help("Duration of one journal flush (fsync) shared by a batch of commands")
                .unit(Unit.SECONDS)
                .classicOnly()
                .classicUpperBounds(LOOP_BOUNDS)
                .register(registry);
        rpc = Histogram.builder()
                .name("sluice_rpc_duration_seconds")
                .help("Client and daemon requests served, by transport, method and outcome")
                .unit(Unit.SECONDS)
                .classicOnly()
                .classicUpperBounds(LOOP_BOUNDS)
                .labelNames("transport", "method", "outcome")
                .register(registry);
    }

    private void gauge(
            String name,
            String help,
            Supplier<ClusterImage> image,
            Function<ClusterImage, List<ImageGauges.Series>> series,
            String... labels) {
        GaugeWithCallback.builder()
                .name(name)
                .help(help)
                .labelNames(labels)
                .callback(cb -> {
                    for (ImageGauges.Series s : series.apply(image.get())) {
                        cb.call(s.value(), s.labels().toArray(String[]::new));
                    }
                })
                .register(registry);
    }

    /** For the controller loop. */
    public LoopTimings loopTimings() {
        return new LoopTimings() {
            @Override
            public void schedulePass(long nanos) {
                schedulePass.observe(nanos / NANOS_PER_SECOND);
            }

            @Override
            public void journalSync(long nanos) {
                journalSync.observe(nanos / NANOS_PER_SECOND);
            }
        };
    }

    /**
     * A client or daemon request served (the RPC servers' timing hook, wired by the server): on
     * the request's own thread, after the answer is ready; never blocks.
     *
     * @param transport the command socket's frames or gRPC, as the server names them
     * @param ok false when the answer carried an error
     */
    public void rpcServed(String transport, String method, long nanos, boolean ok) {
        rpc.labelValues(transport, method, ok ? "ok" : "error").observe(nanos / NANOS_PER_SECOND);
    }

    public PrometheusRegistry registry() {
        return registry;
    }

    /**
     * Serves {@code /metrics} (Prometheus text or OpenMetrics, as the scraper asks).
     *
     * @return the bound port (useful with port 0)
     */
    public int serve(String host, int port) throws IOException {
        server = HTTPServer.builder()
                .hostname(host)
                .port(port)
                .registry(registry)
                .executorService(Executors.newVirtualThreadPerTaskExecutor())
                .buildAndStart();
        return server.getPort();
    }

    @Override
    public void close() {
        if (server != null) {
            server.close();
        }
    }
}
