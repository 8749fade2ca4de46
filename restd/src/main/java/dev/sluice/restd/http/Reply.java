package dev.sluice.restd.http;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/**
 * An HTTP status and the JSON body that goes with it; or, where slurmrestd answers outside any
 * data parser (a refused rest_auth/local request), a plain text in its place.
 */
public record Reply(int status, ObjectNode body, Optional<String> text) {
    public Reply {
        requireNonNull(body, "body is null");
        requireNonNull(text, "text is null");
    }

    public Reply(int status, ObjectNode body) {
        this(status, body, Optional.empty());
    }

    /** A {@code text/plain} answer. */
    public static Reply text(int status, String text) {
        return new Reply(status, JsonNodeFactory.instance.objectNode(), Optional.of(text));
    }
}
