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
import dev.sluice.restd.slurm.ApiVersion;
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
 * Slurm's published OpenAPI documents for v0.0.42 to v0.0.45 (kept outside the repository, with
 * their license, in ../shared/openapi), as validators of this daemon's answers: the JSON schema
 * check, and on top of it a check that every field sent is one the schema declares (its
 * objects do not forbid others, so a misspelled name would otherwise pass).
 */
public final class OpenApiDocs {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<ApiVersion, OpenApiDocs> LOADED = new ConcurrentHashMap<>();

    private final ApiVersion version;
    private final JsonNode document;
    private final SchemaRegistry registry;
    private final Map<String, Schema> schemas = new ConcurrentHashMap<>();
    /** Where the registry finds the document; it is served from memory, never fetched. */
    private final String id;

    private OpenApiDocs(ApiVersion version, JsonNode document, SchemaRegistry registry, String id) {
        this.version = version;
        this.document = document;
        this.registry = registry;
        this.id = id;
    }

    /**
     * {@code -Dsluice.openapi.dir}, else the {@code shared/openapi} folder beside the checkout
     * (found from the module's directory upwards, so a clone anywhere under the workplace
     * finds it), else the workplace's own {@code /work/shared/openapi}.
     */
    private static Path locate(String file) {
        String given = System.getProperty("sluice.openapi.dir");
        if (given != null) {
            return Path.of(given, file);
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("shared/openapi/" + file);
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        return Path.of("/work/shared/openapi/" + file);
    }

    /** This version's document, as Slurm publishes it. */
    public JsonNode published() {
        return document;
    }

    /** v0.0.44's document. */
    public static JsonNode document() {
        return of(ApiVersion.V0044).document;
    }

    /** Skips the calling test when the document is not there, except in CI, where it fails. */
    public static OpenApiDocs of(ApiVersion version) {
        return LOADED.computeIfAbsent(version, OpenApiDocs::load);
    }

    private static OpenApiDocs load(ApiVersion version) {
        String file = "v" + version.number().replace(".", "") + ".json";
        Path path = locate(file);
        if (!Files.isRegularFile(path)) {
            String why = "Slurm's OpenAPI document is not at " + path.toAbsolutePath()
                    + " (the shared/openapi folder beside the repository)";
            if ("true".equals(System.getenv("CI"))) {
                fail(why);
            }
            abort(why);
        }
        try {
            JsonNode doc = JSON.readTree(path.toFile());
            String id = "https://sluice.invalid/openapi/" + file;
            String patched = patched(doc.deepCopy());
            SchemaRegistry registry = SchemaRegistry.withDefaultDialect(
                    SpecificationVersion.DRAFT_4, b -> b.schemas(Map.of(id, patched)));
            return new OpenApiDocs(version, doc, registry, id);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
        of(ApiVersion.V0044).assertValidAs(schemaName, answer);
    }

    /**
     * Asserts that {@code answer} is a valid {@code components/schemas/vX.Y.Z_NAME} of this
     * version, no more: {@code name} without the version prefix, e.g. {@code openapi_ping_array_resp}.
     */
    public void assertValidFor(String name, JsonNode answer) {
        assertValidAs("v" + version.number() + "_" + name, answer);
    }

    private void assertValidAs(String schemaName, JsonNode answer) {
        assertThat(document.path("components").path("schemas").has(schemaName))
                .as("%s is a schema of %s", schemaName, version)
                .isTrue();
        Schema schema = schemas.computeIfAbsent(
                schemaName, n -> registry.getSchema(SchemaLocation.of(id + "#/components/schemas/" + n)));
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

    private void undeclared(JsonNode schema, JsonNode value, String at, List<String> out) {
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

    private JsonNode resolve(JsonNode schema) {
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
