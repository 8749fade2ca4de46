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

    /** A DELETE that takes a body ({@code DELETE jobs}: a {@code kill_jobs_msg}). */
    public static Route delete(String template, String summary, String response, String body) {
        return new Route("DELETE", template, summary, response, Optional.of(body));
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

    /** A request matched to a route: its dispatch {@link #key()} and the path's argument ({@code 12}), if any. */
    public record Match(String key, String arg) {}

    /**
     * The route of {@code routes} a request for {@code rest} (the path below the version's
     * prefix; a trailing slash is allowed) is for; empty when none is. A fixed segment wins over
     * a parameter: {@code job/submit} is not the job called "submit". A parameter may sit
     * between two fixed segments ({@code job/{job_id}/requeue}).
     */
    public static Optional<Match> match(String method, String rest, java.util.Collection<Route> routes) {
        String path = rest.endsWith("/") ? rest.substring(0, rest.length() - 1) : rest;
        String[] parts = path.split("/", -1);
        if (parts.length > 3) {
            return Optional.empty();
        }
        String exact = method + " " + path;
        String key = routes.stream().anyMatch(r -> r.key().equals(exact))
                ? exact
                : method + " " + parts[0] + (parts.length > 1 ? "/*" : "") + (parts.length > 2 ? "/" + parts[2] : "");
        return routes.stream().anyMatch(r -> r.key().equals(key))
                ? Optional.of(new Match(key, parts.length > 1 ? parts[1] : ""))
                : Optional.empty();
    }
}
