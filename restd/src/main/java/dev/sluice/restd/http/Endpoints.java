package dev.sluice.restd.http;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One API tree's routes, each bound to what serves it: the same table answers requests and
 * lists the routes for {@code /openapi/v3}, so a documented route cannot lack a handler and a
 * handler cannot go undocumented.
 *
 * @param <R> what one request carries to its handler (the call, the answer being built, the
 *     API instance)
 */
public final class Endpoints<R> {

    /** Serves one route; {@code arg} is the path's parameter ({@code 12} of {@code job/12}), or empty. */
    @FunctionalInterface
    public interface Handler<R> {
        Reply serve(R request, String arg) throws Exception;
    }

    /** A request matched to its route: the dispatch key ({@code GET job/*}), the argument, the handler. */
    public record Bound<R>(String key, String arg, Handler<R> handler) {}

    private final List<Route> routes;
    private final Map<String, Handler<R>> handlers;

    private Endpoints(List<Route> routes, Map<String, Handler<R>> handlers) {
        this.routes = List.copyOf(routes);
        this.handlers = Map.copyOf(handlers);
    }

    public static <R> Builder<R> builder() {
        return new Builder<>();
    }

    /** Every route, in the order the document lists them. */
    public List<Route> routes() {
        return routes;
    }

    /** Only the routes {@code keep} accepts (a data parser version without some of them). */
    public Endpoints<R> only(java.util.function.Predicate<Route> keep) {
        List<Route> kept = routes.stream().filter(keep).toList();
        Map<String, Handler<R>> bound = new HashMap<>();
        kept.forEach(r -> bound.put(r.key(), handlers.get(r.key())));
        return new Endpoints<>(kept, bound);
    }

    /** The route {@code rest} (the path below the tree's prefix) is for; empty when none is. */
    public Optional<Bound<R>> match(String method, String rest) {
        return Route.match(method, rest, routes).map(m -> new Bound<>(m.key(), m.arg(), handlers.get(m.key())));
    }

    /**
     * What a handler threw that its tree does not answer with an error of its own: a bug, which
     * the server answers as any other (500) and logs.
     */
    public static RuntimeException unexpected(Bound<?> bound, Exception e) {
        return e instanceof RuntimeException r ? r : new IllegalStateException(bound.key() + " failed", e);
    }

    /** Routes added in the order they are documented, each with its handler. */
    public static final class Builder<R> {
        private final List<Route> routes = new ArrayList<>();
        private final Map<String, Handler<R>> handlers = new HashMap<>();

        public Builder<R> get(String template, String summary, String response, Handler<R> handler) {
            return add(Route.get(template, summary, response), handler);
        }

        public Builder<R> delete(String template, String summary, String response, Handler<R> handler) {
            return add(Route.delete(template, summary, response), handler);
        }

        public Builder<R> delete(String template, String summary, String response, String body, Handler<R> handler) {
            return add(Route.delete(template, summary, response, body), handler);
        }

        public Builder<R> post(String template, String summary, String response, String body, Handler<R> handler) {
            return add(Route.post(template, summary, response, body), handler);
        }

        private Builder<R> add(Route route, Handler<R> handler) {
            requireNonNull(handler, "handler is null");
            if (handlers.putIfAbsent(route.key(), handler) != null) {
                throw new IllegalArgumentException("two routes are " + route.key());
            }
            routes.add(route);
            return this;
        }

        public Endpoints<R> build() {
            return new Endpoints<>(routes, handlers);
        }
    }
}
