package dev.sluice.restd.http;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** An HTTP status and the JSON body that goes with it. */
public record Reply(int status, ObjectNode body) {
    public Reply {
        requireNonNull(body, "body is null");
    }
}
