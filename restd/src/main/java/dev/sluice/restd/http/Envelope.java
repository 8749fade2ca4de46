package dev.sluice.restd.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.common.slurm.SlurmVersion;

/**
 * What every answer carries: {@code meta} (which data parser, who asked, which Slurm), and the
 * {@code errors} and {@code warnings} arrays, present even when empty, as slurmrestd sends them.
 */
public final class Envelope {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private final ObjectNode body = F.objectNode();

    /**
     * @param dataParser {@code data_parser/v0.0.44}
     * @param user the authenticated user, or empty before authentication
     */
    public Envelope(String dataParser, String user, String source, String cluster) {
        this(dataParser, user, source, cluster, false);
    }

    /** @param accounting an answer of the {@code /slurmdb/} tree (plugin openapi/slurmdbd) */
    public Envelope(String dataParser, String user, String source, String cluster, boolean accounting) {
        ObjectNode meta = body.putObject("meta");
        ObjectNode plugin = meta.putObject("plugin");
        plugin.put("type", accounting ? "openapi/slurmdbd" : "openapi/slurmctld");
        plugin.put("name", accounting ? "Slurm OpenAPI slurmdbd" : "Slurm OpenAPI slurmctld");
        plugin.put("data_parser", dataParser);
        plugin.put("accounting_storage", accounting ? "accounting_storage/slurmdbd" : "");
        ObjectNode client = meta.putObject("client");
        client.put("source", source);
        client.put("user", user);
        client.put("group", "");
        ObjectNode slurm = meta.putObject("slurm");
        String[] v = SlurmVersion.RELEASE.split("\\.");
        ObjectNode version = slurm.putObject("version");
        version.put("major", v[0]);
        version.put("micro", v[2]);
        version.put("minor", v[1]);
        slurm.put("release", SlurmVersion.RELEASE);
        slurm.put("cluster", cluster);
        body.putArray("errors");
        body.putArray("warnings");
    }

    public ObjectNode body() {
        return body;
    }

    /** Adds one {@code openapi_error}. */
    public Envelope error(int number, String error, String description, String source) {
        ArrayNode errors = (ArrayNode) body.get("errors");
        errors.addObject()
                .put("description", description)
                .put("error_number", number)
                .put("error", error)
                .put("source", source);
        return this;
    }

    /** Adds one {@code openapi_warning}. */
    public Envelope warning(String description, String source) {
        ((ArrayNode) body.get("warnings"))
                .addObject()
                .put("description", description)
                .put("source", source);
        return this;
    }

    public Reply reply(int status) {
        return new Reply(status, body);
    }
}
