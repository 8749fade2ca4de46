package dev.sluice.restd;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.restd.RestFixture.Answer;
import dev.sluice.restd.http.Route;
import dev.sluice.restd.slurm.ApiVersion;
import dev.sluice.restd.slurm.SlurmApi;
import dev.sluice.restd.slurmdb.SlurmdbApi;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code /openapi/v3}: generated from the route tables the requests are dispatched on, every
 * operation in it is one Slurm publishes for that version, with the same answer and body schema,
 * and every route in it is served.
 */
class TestOpenApiDocument {
    private RestFixture rest;

    @BeforeEach
    void start() throws IOException {
        rest = new RestFixture();
    }

    @AfterEach
    void stop() {
        rest.close();
    }

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
            all += SlurmApi.routes(v).size() + SlurmdbApi.ROUTES.size();
        }
        assertThat(checked).hasSize(all);
        // Reservation writes came with v0.0.43.
        assertThat(SlurmApi.routes(ApiVersion.V0042)).hasSize(SlurmApi.ROUTES.size() - 3);
        assertThat(SlurmApi.routes(ApiVersion.V0043)).hasSize(SlurmApi.ROUTES.size());
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
            for (Route r : SlurmdbApi.ROUTES) {
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
                        .replace("{reservation_name}", "maint");
        String body = r.body().isPresent() ? "{\"job\":{\"script\":\"#!/bin/sh\\n\",\"name\":\"x\"}}" : null;
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
