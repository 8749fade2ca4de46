package dev.sluice.packaging.load;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Optional;

/**
 * Prints one sample of a Prometheus text exposition ({@code MetricValue URL NAME}), e.g. the
 * controller's {@code sluice_journal_sync_seconds_count}: how {@code scripts/bench-e2e} counts
 * journal syncs without assuming curl is installed.
 */
public final class MetricValue {
    private MetricValue() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: MetricValue URL NAME");
            System.exit(2);
        }
        String text;
        try (HttpClient http = HttpClient.newHttpClient()) {
            text = http.send(HttpRequest.newBuilder(URI.create(args[0])).build(), HttpResponse.BodyHandlers.ofString())
                    .body();
        }
        Optional<String> value = sample(text, args[1]);
        if (value.isEmpty()) {
            System.err.println("MetricValue: no sample " + args[1] + " at " + args[0]);
            System.exit(1);
        }
        System.out.println(value.get());
    }

    /** The value of the unlabelled sample {@code name}, skipping comments and labelled samples. */
    static Optional<String> sample(String exposition, String name) {
        return exposition
                .lines()
                .filter(l -> l.startsWith(name + " "))
                .map(l -> l.substring(name.length() + 1).trim())
                .findFirst();
    }
}
