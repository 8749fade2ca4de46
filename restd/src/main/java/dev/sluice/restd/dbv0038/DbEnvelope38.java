package dev.sluice.restd.dbv0038;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.restd.http.Reply;
import dev.sluice.restd.v0038.Meta38;

/** What every dbv0.0.38 answer carries: {@code meta} (the plugin, Slurm's version) and {@code errors}. */
final class DbEnvelope38 {
    static final JsonNodeFactory F = JsonNodeFactory.instance;

    /** slurmrestd's ESLURM_REST_EMPTY_RESULT: the query was fine and found nothing. */
    static final int NOTHING_FOUND = 9003;

    /** slurmrestd's ESLURM_REST_INVALID_QUERY. */
    static final int INVALID_QUERY = 9000;

    private final ObjectNode body = F.objectNode();

    DbEnvelope38() {
        Meta38.write(body, "openapi/dbv0.0.38", "Slurm OpenAPI DB v0.0.38");
        body.putArray("errors");
    }

    ObjectNode body() {
        return body;
    }

    /** An error with Slurm's number and text, what failed and where ({@code source} null: none). */
    DbEnvelope38 error(String description, int number, String error, String source) {
        ObjectNode e = ((ArrayNode) body.get("errors")).addObject();
        if (description != null) {
            e.put("description", description);
        }
        e.put("error", error);
        e.put("error_number", number);
        if (source != null) {
            e.put("source", source);
        }
        return this;
    }

    /**
     * A remark of 22.05's parser on the body ({@code Missing required field 'user'}): a
     * description without a number, from {@code _parser_run}.
     */
    DbEnvelope38 parserNote(String description) {
        ObjectNode e = ((ArrayNode) body.get("errors")).addObject();
        e.put("description", description);
        e.put("source", "_parser_run");
        return this;
    }

    /** The listing found nothing: slurmrestd's "Nothing found", naming the call that found it. */
    DbEnvelope38 nothingFound(String source) {
        return error("Nothing found", NOTHING_FOUND, "Nothing found with query", source);
    }

    Reply reply(int status) {
        return new Reply(status, body);
    }
}
