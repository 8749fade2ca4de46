package dev.sluice.restd.http;

import java.io.InputStream;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import jdk.net.UnixDomainPrincipal;

/**
 * One request as the handlers read it, whatever connector carried it: Jetty's request is read
 * into this once, so that authentication and dispatch ({@link Dispatcher}) know nothing of Jetty.
 *
 * @param source the client as slurmrestd's logs and {@code meta} name it
 * @param peer the Unix socket's peer, for rest_auth/local
 * @param client the client as some of slurmrestd 22.05's error texts name it (a name lookup:
 *     asked only by the answers that show it)
 */
record Exchange(
        String method,
        String path,
        String rawQuery,
        Function<String, String> header,
        String source,
        Optional<UnixDomainPrincipal> peer,
        Supplier<String> client,
        InputStream body) {
    String getFirst(String name) {
        return header.apply(name);
    }
}
