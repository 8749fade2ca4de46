package dev.sluice.operator.crd;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The CRDs in the Helm chart ({@code packaging/operator/crds/}) are exactly what the build's
 * crd-generator made from the Java types ({@code operator/target/crds/}): a type changed without
 * copying its CRD fails here. To refresh: {@code cp operator/target/crds/* packaging/operator/crds/}.
 */
class TestGeneratedCrds {
    static final Path GENERATED = Path.of("target/crds");
    static final Path CHART = Path.of("../packaging/operator/crds");

    @Test
    void theChartHoldsTheGeneratedCrdsUnchanged() throws IOException {
        List<String> generated = names(GENERATED);
        assertThat(generated)
                .containsExactlyInAnyOrder(
                        "accountings.sluice.dev-v1.yml",
                        "controllers.sluice.dev-v1.yml",
                        "loginsets.sluice.dev-v1.yml",
                        "nodesets.sluice.dev-v1.yml",
                        "restapis.sluice.dev-v1.yml",
                        "tokens.sluice.dev-v1.yml");
        assertThat(names(CHART)).containsExactlyInAnyOrderElementsOf(generated);
        for (String name : generated) {
            assertThat(Files.readString(CHART.resolve(name)))
                    .as("%s is stale: cp operator/target/crds/* packaging/operator/crds/", name)
                    .isEqualTo(Files.readString(GENERATED.resolve(name)));
        }
    }

    @Test
    void nodeSetHasTheScaleSubresourceOnReplicasAndSelector() throws IOException {
        String crd = Files.readString(GENERATED.resolve("nodesets.sluice.dev-v1.yml"));
        assertThat(crd)
                .contains("scale:\n"
                        + "        labelSelectorPath: \".status.selector\"\n"
                        + "        specReplicasPath: \".spec.replicas\"\n"
                        + "        statusReplicasPath: \".status.replicas\"\n"
                        + "      status: {}");
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
