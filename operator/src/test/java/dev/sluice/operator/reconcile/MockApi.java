package dev.sluice.operator.reconcile;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.stream.Stream;

/**
 * fabric8's mock API server in CRUD mode with the generated CRDs installed (so status and scale
 * subresources behave), a namespace and a cluster-key Secret.
 */
public final class MockApi implements AutoCloseable {
    public static final String NS = "hpc";
    public static final String KEY_SECRET = "sluice-key";

    private final KubernetesMockServer server = new KubernetesMockServer(
            new io.fabric8.mockwebserver.Context(),
            new io.fabric8.mockwebserver.MockWebServer(),
            new java.util.HashMap<>(),
            new io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher(),
            false);
    private final KubernetesClient client;

    public MockApi(byte[] clusterKey) throws IOException {
        server.init();
        client = server.createClient();
        try (Stream<Path> crds = Files.list(Path.of("target/crds"))) {
            for (Path f : crds.sorted().toList()) {
                try (InputStream in = Files.newInputStream(f)) {
                    client.resource(client.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class))
                            .create();
                }
            }
        }
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(NS)
                        .endMetadata()
                        .build())
                .create();
        client.secrets()
                .inNamespace(NS)
                .resource(new SecretBuilder()
                        .withNewMetadata()
                        .withName(KEY_SECRET)
                        .endMetadata()
                        .addToData("slurm.key", Base64.getEncoder().encodeToString(clusterKey))
                        .build())
                .create();
    }

    public KubernetesClient client() {
        return client;
    }

    @Override
    public void close() {
        client.close();
        server.destroy();
    }
}
