package dev.sluice.noded.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class TestNodedMetrics {
    @Test
    void eachGpuJobIsOneSeriesLabelledWithItsGpuIndicesAndGoesWhenTheJobEnds() throws Exception {
        Map<Integer, List<Integer>> running = new ConcurrentHashMap<>();
        running.put(7, List.of(0, 2));
        running.put(8, List.of());
        AtomicInteger steps = new AtomicInteger(3);
        try (NodedMetrics metrics = new NodedMetrics("gpu01", () -> Map.copyOf(running), steps::get)) {
            int port = metrics.serve("127.0.0.1", 0);

            String body = scrape(port);
            assertThat(body)
                    .contains("sluice_noded_job_gpus{gpus=\"0,2\",job_id=\"7\",node=\"gpu01\"} 2.0")
                    .contains("sluice_noded_running_jobs{node=\"gpu01\"} 2.0")
                    .contains("sluice_noded_running_steps{node=\"gpu01\"} 3.0")
                    .doesNotContain("job_id=\"8\"");

            running.remove(7);
            steps.set(0);
            assertThat(scrape(port))
                    .doesNotContain("job_id=\"7\"")
                    .contains("sluice_noded_running_jobs{node=\"gpu01\"} 1.0")
                    .contains("sluice_noded_running_steps{node=\"gpu01\"} 0.0");
        }
    }

    private static String scrape(int port) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        return r.body();
    }
}
