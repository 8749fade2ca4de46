package dev.sluice.restd.http;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * One endpoint as the daemon serves it and documents it: the method, the path below the
 * version's prefix as Slurm's OpenAPI document writes it ({@code job/{job_id}}), what it does,
 * and the names (without the {@code vX.Y.Z_} prefix) of Slurm's schemas for its answer and body.
 */
public record Route(String method, String template, String summary, String response, Optional<String> body) {
    public Route {
        requireNonNull(method, "method is null");
        requireNonNull(template, "template is null");
        requireNonNull(summary, "summary is null");
        requireNonNull(response, "response is null");
        requireNonNull(body, "body is null");
    }

    public static Route get(String template, String summary, String response) {
        return new Route("GET", template, summary, response, Optional.empty());
    }

    public static Route delete(String template, String summary, String response) {
        return new Route("DELETE", template, summary, response, Optional.empty());
    }

    public static Route post(String template, String summary, String response, String body) {
        return new Route("POST", template, summary, response, Optional.of(body));
    }

    /**
     * The key requests are dispatched on: {@code GET job/*} for {@code job/{job_id}}; a fixed
     * segment stays itself ({@code POST job/submit}).
     */
    public String key() {
        return method + " " + template.replaceAll("\\{[^}]+}", "*").replaceAll("/$", "");
    }

    /** The key of a request for {@code rest} (the path below the version's prefix, no trailing slash). */
    public static String keyOf(String method, String rest, java.util.Collection<Route> routes) {
        String[] parts = rest.split("/", -1);
        String exact = method + " " + rest;
        if (routes.stream().anyMatch(r -> r.key().equals(exact))) {
            return exact;
        }
        return method + " " + parts[0] + (parts.length > 1 ? "/*" : "");
    }
}
