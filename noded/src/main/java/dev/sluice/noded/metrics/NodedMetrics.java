package dev.sluice.noded.metrics;

import static java.util.Objects.requireNonNull;

import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * What {@code sluice-noded} exposes: running batch jobs, the GPU indices each holds (as a label,
 * so a DCGM exporter's per-GPU series can be joined to jobs), and running steps. Values are read
 * from the launchers when scraped.
 */
public final class NodedMetrics implements AutoCloseable {
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private HTTPServer server;

    /**
     * @param jobGpus running job id → GPU indices it holds on this node (empty for none)
     * @param runningSteps steps with tasks running here
     */
    public NodedMetrics(String node, Supplier<Map<Integer, List<Integer>>> jobGpus, IntSupplier runningSteps) {
        requireNonNull(node, "node is null");
        requireNonNull(jobGpus, "jobGpus is null");
        requireNonNull(runningSteps, "runningSteps is null");
        GaugeWithCallback.builder()
                .name("sluice_noded_running_jobs")
                .help("Batch jobs running on this node")
                .labelNames("node")
                .callback(cb -> cb.call(jobGpus.get().size(), node))
                .register(registry);
        GaugeWithCallback.builder()
                .name("sluice_noded_running_steps")
                .help("Job steps with tasks running on this node")
                .labelNames("node")
                .callback(cb -> cb.call(runningSteps.getAsInt(), node))
                .register(registry);
        GaugeWithCallback.builder()
                .name("sluice_noded_job_gpus")
                .help("GPUs a running job holds on this node; the gpus label lists their indices")
                .labelNames("node", "job_id", "gpus")
                .callback(cb -> jobGpus.get().forEach((job, gpus) -> {
                    if (!gpus.isEmpty()) {
                        cb.call(gpus.size(), node, Integer.toString(job), indices(gpus));
                    }
                }))
                .register(registry);
    }

    /** GPU indices as CUDA_VISIBLE_DEVICES and SLURM_JOB_GPUS print them: {@code 0,2}. */
    static String indices(List<Integer> gpus) {
        return gpus.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    public PrometheusRegistry registry() {
        return registry;
    }

    /** @return the bound port (useful with port 0) */
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
