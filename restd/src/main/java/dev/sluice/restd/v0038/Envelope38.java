package dev.sluice.restd.v0038;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.restd.http.Reply;

/**
 * What every v0.0.38 answer carries: {@code meta} (the plugin and Slurm's version) and the
 * {@code errors} array. slurmrestd 22.05 words an error differently per endpoint (the job
 * listing as a described openapi error, nodes and partitions with {@code errno}, a submission
 * with {@code error_code}); each has its method here.
 */
final class Envelope38 {
    static final JsonNodeFactory F = JsonNodeFactory.instance;

    private final ObjectNode body = F.objectNode();

    Envelope38() {
        Meta38.write(body, "openapi/v0.0.38", "Slurm OpenAPI v0.0.38");
        body.putArray("errors");
    }

    ObjectNode body() {
        return body;
    }

    private ArrayNode errors() {
        return (ArrayNode) body.get("errors");
    }

    /** As the job listing reports one: what failed, Slurm's error, its number and the call. */
    Envelope38 described(String description, int number, String error, String source) {
        errors().addObject()
                .put("description", description)
                .put("error_number", number)
                .put("error", error)
                .put("source", source);
        return this;
    }

    /** As the request parser reports what it could not read: a description and its source alone. */
    Envelope38 sourced(String description, String source) {
        errors().addObject().put("description", description).put("source", source);
        return this;
    }

    /** As the node and partition listings report one. */
    Envelope38 errno(int number, String error) {
        errors().addObject().put("error", error).put("errno", number);
        return this;
    }

    /** As a submission or a cancellation reports one. */
    Envelope38 errorCode(int number, String error) {
        errors().addObject().put("error", error).put("error_code", number);
        return this;
    }

    Reply reply(int status) {
        return new Reply(status, body);
    }
}
