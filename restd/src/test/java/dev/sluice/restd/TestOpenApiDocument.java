package dev.sluice.restd;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.restd.RestFixture.Answer;
import dev.sluice.restd.dbv0038.Db38;
import dev.sluice.restd.http.Route;
import dev.sluice.restd.slurm.ApiVersion;
import dev.sluice.restd.slurm.SlurmApi;
import dev.sluice.restd.slurmdb.SlurmdbApi;
import dev.sluice.restd.v0038.Api38;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * {@code /openapi/v3}: generated from the route tables the requests are dispatched on, every
 * operation in it is one Slurm publishes for that version, with the same answer and body schema,
 * and every route in it is served.
 */
class TestOpenApiDocument {
    @AutoClose
    private final RestFixture rest = RestFixture.started();

    @Test
    void everyOperationServedIsOneSlurmPublishesWithTheSameSchemas() {
        Answer a = rest.as("GET", "/openapi/v3", null);
        assertThat(a.status()).isEqualTo(200);
        JsonNode ours = a.body();
        assertThat(ours.get("openapi").asText()).startsWith("3.");
        List<String> checked = new ArrayList<>();
        for (ApiVersion v : ApiVersion.values()) {
            JsonNode slurm = OpenApiDocs.of(v).published();
            for (Iterator<Map.Entry<String, JsonNode>> paths = ours.get("paths").fields(); paths.hasNext(); ) {
                Map.Entry<String, JsonNode> path = paths.next();
                if (!path.getKey().contains("/v" + v.number() + "/")) {
                    continue;
                }
                for (Iterator<Map.Entry<String, JsonNode>> ops = path.getValue().fields(); ops.hasNext(); ) {
                    Map.Entry<String, JsonNode> op = ops.next();
                    JsonNode theirs = slurm.path("paths").path(path.getKey()).path(op.getKey());
                    assertThat(theirs.isMissingNode())
                            .as("Slurm publishes %s %s", op.getKey(), path.getKey())
                            .isFalse();
                    assertThat(answerRef(op.getValue()))
                            .as("answer of %s %s", op.getKey(), path.getKey())
                            .isEqualTo(answerRef(theirs));
                    assertThat(op.getValue()
                                    .at("/requestBody/content/application~1json/schema/$ref")
                                    .asText())
                            .as("body of %s %s", op.getKey(), path.getKey())
                            .isEqualTo(theirs.at("/requestBody/content/application~1json/schema/$ref")
                                    .asText());
                    checked.add(op.getKey() + " " + path.getKey());
                }
            }
        }
        int all = 0;
        for (ApiVersion v : ApiVersion.values()) {
            all += SlurmApi.routes(v).size() + SlurmdbApi.routes(v).size();
        }
        assertThat(checked).hasSize(all);
        // Reservation writes came with v0.0.43, node creation and resource layouts with
        // v0.0.44, requeue with v0.0.45.
        assertThat(SlurmApi.routes(ApiVersion.V0042)).hasSize(SlurmApi.ROUTES.size() - 7);
        assertThat(SlurmApi.routes(ApiVersion.V0043)).hasSize(SlurmApi.ROUTES.size() - 4);
        assertThat(SlurmApi.routes(ApiVersion.V0044)).hasSize(SlurmApi.ROUTES.size() - 2);
        assertThat(SlurmApi.routes(ApiVersion.V0045)).hasSize(SlurmApi.ROUTES.size());
        // Job record changes came with v0.0.44.
        assertThat(SlurmdbApi.routes(ApiVersion.V0043)).hasSize(SlurmdbApi.ROUTES.size() - 2);
        assertThat(SlurmdbApi.routes(ApiVersion.V0044)).hasSize(SlurmdbApi.ROUTES.size());
    }

    /**
     * The v0.0.38 and dbv0.0.38 routes served are listed, each one slurmrestd 22.05 lists with
     * the same answer and body schemas (its own listing, recorded from it, in the test
     * resources). Where 22.05 names no answer schema (its job cancel and update) only the body
     * is compared.
     */
    @Test
    void the2205RoutesServedAreListedAsSlurmrestd2205ListsThem() throws IOException {
        Map<String, String[]> slurm = new java.util.HashMap<>();
        try (var in = getClass().getResourceAsStream("/slurmrestd-22.05-operations.txt")) {
            for (String line : new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    String[] f = line.split(" ");
                    slurm.put(f[0] + " " + f[1], f);
                }
            }
        }
        JsonNode paths = rest.as("GET", "/openapi/v3", null).body().get("paths");
        List<String> listed = new ArrayList<>();
        for (var api : List.of(Map.entry(Api38.PREFIX, Api38.ROUTES), Map.entry(Db38.PREFIX, Db38.ROUTES))) {
            for (Route r : api.getValue()) {
                String path = api.getKey() + r.template().replaceAll("/$", "");
                String[] theirs = slurm.get(r.method() + " " + path);
                assertThat(theirs)
                        .as("slurmrestd 22.05 lists %s %s", r.method(), path)
                        .isNotNull();
                JsonNode op = paths.path(path).path(r.method().toLowerCase(java.util.Locale.ROOT));
                assertThat(op.isMissingNode())
                        .as("/openapi/v3 lists %s %s", r.method(), path)
                        .isFalse();
                if (!theirs[2].equals("-")) {
                    assertThat(answerRef(op))
                            .as("answer of %s %s", r.method(), path)
                            .isEqualTo("#/components/schemas/" + theirs[2]);
                }
                String body = op.at("/requestBody/content/application~1json/schema/$ref")
                        .asText();
                assertThat(body.isEmpty() ? "-" : body.replace("#/components/schemas/", ""))
                        .as("body of %s %s", r.method(), path)
                        .isEqualTo(theirs[3]);
                listed.add(r.method() + " " + path);
            }
        }
        assertThat(listed).contains("DELETE /slurmdb/v0.0.38/association", "GET /slurmdb/v0.0.38/wckeys");
        for (Route r : Api38.ROUTES) {
            assertServed(Api38.PREFIX, r);
        }
        for (Route r : Db38.ROUTES) {
            assertServed(Db38.PREFIX, r);
        }
    }

    private static String answerRef(JsonNode op) {
        return op.at("/responses/200/content/application~1json/schema/$ref").asText();
    }

    /** Every documented route reaches its handler: none answers 404 or fails for want of one. */
    @Test
    void everyDocumentedRouteIsServed() {
        for (ApiVersion v : ApiVersion.values()) {
            for (Route r : SlurmApi.routes(v)) {
                assertServed(v.slurmPrefix(), r);
            }
            for (Route r : SlurmdbApi.routes(v)) {
                assertServed(v.slurmdbPrefix(), r);
            }
        }
    }

    private void assertServed(String prefix, Route r) {
        String path = prefix
                + r.template()
                        .replace("{job_id}", "100")
                        .replace("{node_name}", "n1")
                        .replace("{partition_name}", "debug")
                        .replace("{account_name}", "physics")
                        .replace("{name}", "alice")
                        .replace("{qos}", "normal")
                        .replace("{cluster_name}", "test")
                        .replace("{reservation_name}", "maint")
                        .replace("{user_name}", "alice")
                        .replace("{qos_name}", "normal")
                        .replace("{wckey}", "w")
                        .replace("{id}", "1");
        String body = r.body().isPresent() ? "{\"job\":{\"script\":\"#!/bin/sh\\n\",\"name\":\"x\"}}" : null;
        if (r.method().equals("POST") && r.template().startsWith("nodes/")) {
            body = "{\"name\":[\"n1\"],\"state\":[\"DRAIN\"],\"reason\":\"r\"}";
        }
        if (r.method().equals("POST") && r.template().startsWith("new/node")) {
            body = "{\"node_conf\":\"NodeName=d1 CPUs=2\"}";
        }
        if (r.method().equals("POST") && r.template().equals("jobs/requeue")) {
            body = "{\"jobs\":[\"100\"]}";
        }
        if (r.method().equals("POST") && r.template().startsWith("node/")) {
            body = "{\"state\":[\"DRAIN\"],\"reason\":\"r\"}";
        }
        if (r.method().equals("POST") && r.template().startsWith("reservation")) {
            String one = "{\"name\":\"maint\",\"users\":[\"root\"],\"duration\":5,\"node_list\":[\"n1\"]}";
            body = r.template().startsWith("reservations") ? "{\"reservations\":[" + one + "]}" : one;
        }
        Answer a = rest.as(r.method(), path, body);
        assertThat(a.status()).as("%s %s: %s", r.method(), path, a.body()).isNotEqualTo(404);
        assertThat(a.body().path("errors").toString())
                .as("%s %s", r.method(), path)
                .doesNotContain("no handler");
    }
}
