package dev.sluice.operator.crd;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every manifest in {@code packaging/operator/examples/} parses, and each custom resource among
 * them validates against its generated CRD and reads into its Java type; the rest (the HPA) are
 * Kubernetes kinds the fabric8 model reads.
 */
class TestExampleManifests {
    static final Path EXAMPLES = Path.of("../packaging/operator/examples");
    static CrdSchemas schemas;

    @BeforeAll
    static void load() throws IOException {
        schemas = new CrdSchemas(TestGeneratedCrds.GENERATED);
    }

    static List<JsonNode> documents(Path file) throws IOException {
        List<JsonNode> docs = new ArrayList<>();
        try (MappingIterator<JsonNode> it =
                CrdSchemas.YAML.readerFor(JsonNode.class).readValues(file.toFile())) {
            while (it.hasNext()) {
                JsonNode doc = it.next();
                if (doc != null && !doc.isEmpty()) {
                    docs.add(doc);
                }
            }
        }
        return docs;
    }

    @Test
    void everyExampleIsValidAgainstItsCrd() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(EXAMPLES)) {
            files = s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        List<String> kinds = new ArrayList<>();
        for (Path f : files) {
            for (JsonNode doc : documents(f)) {
                String kind = doc.path("kind").asText();
                kinds.add(kind);
                if (doc.path("apiVersion").asText().startsWith(Controller.GROUP + "/")) {
                    assertThat(schemas.knows(kind)).as("%s: kind %s", f, kind).isTrue();
                    assertThat(schemas.problems(kind, doc)).as("%s", f).isEmpty();
                }
                HasMetadata typed = Serialization.unmarshal(CrdSchemas.YAML.writeValueAsString(doc));
                assertThat(typed.getMetadata().getName()).isNotBlank();
                assertThat(typed.getKind()).isEqualTo(kind);
            }
        }
        assertThat(kinds)
                .contains(
                        "Controller",
                        "NodeSet",
                        "LoginSet",
                        "Accounting",
                        "RestApi",
                        "Token",
                        "HorizontalPodAutoscaler");
    }

    @Test
    void theValidatorRejectsWhatTheApiServerWould() throws IOException {
        JsonNode nodeSet = documents(EXAMPLES.resolve("nodeset.yaml")).getFirst();
        JsonNode typo = nodeSet.deepCopy();
        ((com.fasterxml.jackson.databind.node.ObjectNode) typo.path("spec")).put("replica", 3);
        assertThat(schemas.problems("NodeSet", typo))
                .containsExactly("$.spec.replica: unknown field (the API server would drop it)");
        JsonNode negative = nodeSet.deepCopy();
        ((com.fasterxml.jackson.databind.node.ObjectNode) negative.path("spec")).put("replicas", -1);
        assertThat(schemas.problems("NodeSet", negative))
                .singleElement()
                .asString()
                .contains("replicas");
        JsonNode noRef = nodeSet.deepCopy();
        ((com.fasterxml.jackson.databind.node.ObjectNode) noRef.path("spec")).remove("controllerRef");
        assertThat(schemas.problems("NodeSet", noRef))
                .singleElement()
                .asString()
                .contains("controllerRef");
    }

    @Test
    void aNodeSetReadsIntoItsJavaType() throws IOException {
        NodeSet set = Serialization.unmarshal(Files.readString(EXAMPLES.resolve("nodeset.yaml")), NodeSet.class);
        assertThat(set.getSpec().replicas).isEqualTo(2);
        assertThat(set.getSpec().controllerRef.getName()).isEqualTo("lab");
        assertThat(set.getSpec().updateStrategy.rollingUpdate.maxUnavailable.getIntVal())
                .isEqualTo(1);
        assertThat(set.getSpec()
                        .template
                        .spec
                        .path("nodeSelector")
                        .path("nvidia.com/gpu.present")
                        .asText())
                .isEqualTo("true");
    }
}
