package dev.sluice.restd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Slurm's published OpenAPI document for v0.0.44 (kept outside the repository, with its
 * license, in ../shared/openapi), as a validator of this daemon's answers: the JSON schema
 * check, and on top of it a check that every field sent is one the schema declares (its
 * objects do not forbid others, so a misspelled name would otherwise pass).
 */
public final class OpenApiV0044 {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path DOCUMENT = locate();
    private static final Map<String, Schema> SCHEMAS = new ConcurrentHashMap<>();
    private static volatile JsonNode document;
    /** Where the registry finds the document; it is served from memory, never fetched. */
    private static final String ID = "https://sluice.invalid/openapi/v0044.json";

    private static volatile SchemaRegistry registry;

    private OpenApiV0044() {}

    /**
     * {@code -Dsluice.openapi.dir}, else the {@code shared/openapi} folder beside the checkout
     * (found from the module's directory upwards, so a clone anywhere under the workplace
     * finds it), else the workplace's own {@code /work/shared/openapi}.
     */
    private static Path locate() {
        String given = System.getProperty("sluice.openapi.dir");
        if (given != null) {
            return Path.of(given, "v0044.json");
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("shared/openapi/v0044.json");
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        return Path.of("/work/shared/openapi/v0044.json");
    }

    /** Skips the calling test when the document is not there, except in CI, where it fails. */
    public static JsonNode document() {
        if (document == null) {
            if (!Files.isRegularFile(DOCUMENT)) {
                String why = "Slurm's OpenAPI document is not at " + DOCUMENT.toAbsolutePath()
                        + " (the shared/openapi folder beside the repository)";
                if ("true".equals(System.getenv("CI"))) {
                    fail(why);
                }
                abort(why);
            }
            try {
                JsonNode doc = JSON.readTree(DOCUMENT.toFile());
                String patched = patched(doc.deepCopy());
                registry = SchemaRegistry.withDefaultDialect(
                        SpecificationVersion.DRAFT_4, b -> b.schemas(Map.of(ID, patched)));
                document = doc;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return document;
    }

    /**
     * The document with one known flaw of Slurm's generator removed: {@code kill_jobs_resp_job}
     * lists nested paths such as {@code error/string} as required property names, which no
     * object can have (slurmrestd's own answers fail it).
     */
    private static String patched(JsonNode doc) throws IOException {
        for (JsonNode schema : doc.path("components").path("schemas")) {
            JsonNode required = schema.get("required");
            if (required instanceof ArrayNode list) {
                for (Iterator<JsonNode> it = list.iterator(); it.hasNext(); ) {
                    if (it.next().asText().contains("/")) {
                        it.remove();
                    }
                }
            }
        }
        return JSON.writeValueAsString(doc);
    }

    /** Asserts that {@code answer} is a valid {@code components/schemas/NAME} of v0.0.44, no more. */
    public static void assertValid(String schemaName, JsonNode answer) {
        document();
        Schema schema = SCHEMAS.computeIfAbsent(
                schemaName, n -> registry.getSchema(SchemaLocation.of(ID + "#/components/schemas/" + n)));
        List<Error> errors;
        try {
            errors = schema.validate(JSON.writeValueAsString(answer), InputFormat.JSON);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertThat(errors).as("%s against %s", answer, schemaName).isEmpty();
        List<String> undeclared = new ArrayList<>();
        undeclared(document.path("components").path("schemas").path(schemaName), answer, "$", undeclared);
        assertThat(undeclared).as("fields %s does not declare", schemaName).isEmpty();
    }

    private static void undeclared(JsonNode schema, JsonNode value, String at, List<String> out) {
        schema = resolve(schema);
        if (value.isObject() && schema.has("properties")) {
            for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                JsonNode declared = schema.path("properties").get(f.getKey());
                if (declared == null) {
                    out.add(at + "." + f.getKey());
                } else {
                    undeclared(declared, f.getValue(), at + "." + f.getKey(), out);
                }
            }
        } else if (value.isArray() && schema.has("items")) {
            for (int i = 0; i < value.size(); i++) {
                undeclared(schema.get("items"), value.get(i), at + "[" + i + "]", out);
            }
        }
    }

    private static JsonNode resolve(JsonNode schema) {
        while (schema.has("$ref")) {
            String ref = schema.get("$ref").asText();
            schema = document.at(ref.substring(1));
        }
        return schema;
    }

    public static ObjectNode parse(String body) {
        try {
            return (ObjectNode) JSON.readTree(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
