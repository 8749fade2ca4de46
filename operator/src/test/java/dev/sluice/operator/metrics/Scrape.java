package dev.sluice.operator.metrics;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

/** GET /metrics in the Prometheus text format; the sample lines of the given metric names. */
public final class Scrape {
    private Scrape() {}

    public static List<String> lines(int port, String prefix) throws IOException, InterruptedException {
        try (HttpClient http = HttpClient.newHttpClient()) {
            String body = http.send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
            return body.lines().filter(l -> l.startsWith(prefix)).sorted().toList();
        }
    }
}
