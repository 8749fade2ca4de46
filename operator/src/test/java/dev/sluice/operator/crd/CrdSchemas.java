package dev.sluice.operator.crd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The generated CRDs' {@code openAPIV3Schema}s as validators, by kind: JSON Schema for types,
 * formats, required fields and bounds, plus what the API server's pruning would do to a field
 * the schema does not declare (reported here as an error, so a typo in a manifest fails).
 */
final class CrdSchemas {
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    static final ObjectMapper JSON = new ObjectMapper();
    private final Map<String, JsonNode> byKind = new HashMap<>();
    private final Map<String, Schema> validators = new HashMap<>();

    CrdSchemas(Path dir) throws IOException {
        SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_4);
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.sorted().toList()) {
                JsonNode crd = YAML.readTree(f.toFile());
                String kind = crd.path("spec").path("names").path("kind").asText();
                JsonNode schema =
                        crd.path("spec").path("versions").get(0).path("schema").path("openAPIV3Schema");
                byKind.put(kind, schema);
                validators.put(kind, registry.getSchema(JSON.writeValueAsString(schema), InputFormat.JSON));
            }
        }
    }

    boolean knows(String kind) {
        return byKind.containsKey(kind);
    }

    /** Why {@code object} (a whole manifest) is not a valid {@code kind}; empty when it is. */
    List<String> problems(String kind, JsonNode object) throws IOException {
        List<String> out = new ArrayList<>();
        for (Error e : validators.get(kind).validate(JSON.writeValueAsString(object), InputFormat.JSON)) {
            out.add(e.toString());
        }
        undeclared(byKind.get(kind), object, "$", out);
        return out;
    }

    private static void undeclared(JsonNode schema, JsonNode value, String at, List<String> out) {
        if (schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)) {
            return;
        }
        if (value.isObject()) {
            JsonNode props = schema.path("properties");
            JsonNode additional = schema.get("additionalProperties");
            for (Iterator<Map.Entry<String, JsonNode>> it = value.properties().iterator(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (at.equals("$")
                        && (e.getKey().equals("apiVersion")
                                || e.getKey().equals("kind")
                                || e.getKey().equals("metadata"))) {
                    continue;
                }
                if (props.has(e.getKey())) {
                    undeclared(props.get(e.getKey()), e.getValue(), at + "." + e.getKey(), out);
                } else if (additional != null && additional.isObject()) {
                    undeclared(additional, e.getValue(), at + "." + e.getKey(), out);
                } else {
                    out.add(at + "." + e.getKey() + ": unknown field (the API server would drop it)");
                }
            }
        } else if (value.isArray() && schema.has("items")) {
            for (int i = 0; i < value.size(); i++) {
                undeclared(schema.get("items"), value.get(i), at + "[" + i + "]", out);
            }
        }
    }
}
