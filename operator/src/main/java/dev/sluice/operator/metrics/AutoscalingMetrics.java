package dev.sluice.operator.metrics;

import dev.sluice.operator.cluster.Clusters;
import dev.sluice.operator.cluster.PartitionLoad;
import dev.sluice.operator.cluster.SluiceCluster.ClusterUnavailableException;
import dev.sluice.operator.crd.Controller;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.function.ToLongFunction;

/**
 * Gauges computed when scraped, from every Controller the operator manages: each asks its
 * controller for jobs, nodes and partitions once per scrape (memoised for a second, as the four
 * gauges are read together). Labels: {@code namespace}, {@code controller}, {@code partition}.
 *
 * <table>
 * <tr><td>{@code sluice_partition_pending_jobs}</td><td>jobs pending in the partition</td></tr>
 * <tr><td>{@code sluice_partition_pending_cpus}</td><td>CPUs those jobs ask for</td></tr>
 * <tr><td>{@code sluice_partition_pending_gpus}</td><td>GPUs ({@code gres/gpu}) they ask for</td></tr>
 * <tr><td>{@code sluice_partition_idle_nodes}</td><td>nodes idle and in service there</td></tr>
 * </table>
 */
public final class AutoscalingMetrics implements AutoCloseable {
    /** One controller's loads. */
    record Sample(String namespace, String controller, List<PartitionLoad> loads) {}

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final KubernetesClient client;
    private final Clusters clusters;
    private final Clock clock;
    private List<Sample> last = List.of();
    private Instant lastAt = Instant.EPOCH;
    private HTTPServer server;

    public AutoscalingMetrics(KubernetesClient client, Clusters clusters, Clock clock) {
        this.client = client;
        this.clusters = clusters;
        this.clock = clock;
        gauge("sluice_partition_pending_jobs", "Jobs pending in the partition", PartitionLoad::pendingJobs);
        gauge(
                "sluice_partition_pending_cpus",
                "CPUs asked for by the jobs pending in the partition",
                PartitionLoad::pendingCpus);
        gauge(
                "sluice_partition_pending_gpus",
                "GPUs (gres/gpu) asked for by the jobs pending in the partition",
                PartitionLoad::pendingGpus);
        gauge("sluice_partition_idle_nodes", "Nodes idle and in service in the partition", PartitionLoad::idleNodes);
    }

    private void gauge(String name, String help, ToLongFunction<PartitionLoad> value) {
        GaugeWithCallback.builder()
                .name(name)
                .help(help)
                .labelNames("namespace", "controller", "partition")
                .callback(cb -> {
                    for (Sample s : samples()) {
                        for (PartitionLoad l : s.loads()) {
                            cb.call(value.applyAsLong(l), s.namespace(), s.controller(), l.partition());
                        }
                    }
                })
                .register(registry);
    }

    synchronized List<Sample> samples() {
        Instant now = clock.instant();
        if (Duration.between(lastAt, now).compareTo(Duration.ofSeconds(1)) < 0) {
            return last;
        }
        List<Sample> out = new ArrayList<>();
        for (Controller c :
                client.resources(Controller.class).inAnyNamespace().list().getItems()) {
            try {
                out.add(new Sample(
                        c.getMetadata().getNamespace(),
                        c.getMetadata().getName(),
                        clusters.forController(client, c).partitionLoads()));
            } catch (ClusterUnavailableException e) {
                // A controller not answering has no series: absent, not zero, so an HPA holds.
            }
        }
        last = out;
        lastAt = now;
        return out;
    }

    public PrometheusRegistry registry() {
        return registry;
    }

    /** Serves {@code /metrics}; returns the bound port (useful with port 0). */
    public int serve(int port) throws IOException {
        server = HTTPServer.builder()
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
