package dev.sluice.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.operator.SluiceOperator;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/** The operator on the mock API server with the controller in memory, and what its tests share. */
final class Operated implements AutoCloseable {
    final MockApi api;
    final KubernetesClient client;
    final SluiceOperator operator;

    Operated() throws Exception {
        api = new MockApi(new byte[64]);
        client = api.client();
        FakeCluster fake = new FakeCluster();
        operator = new SluiceOperator(
                client,
                (k, c) -> fake,
                new MutableClock(() -> fake.now),
                SluiceOperator.Images.defaults(),
                Optional.empty());
        operator.start();
    }

    void secret(String name, String key, String value) {
        client.resource(new SecretBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace(MockApi.NS)
                        .endMetadata()
                        .addToData(key, Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)))
                        .build())
                .createOr(r -> r.update());
    }

    String secretText(String name, String key) {
        var s = client.secrets().inNamespace(MockApi.NS).withName(name).get();
        return new String(Base64.getDecoder().decode(s.getData().get(key)), StandardCharsets.UTF_8);
    }

    Deployment awaitDeployment(String name) {
        await().atMost(Duration.ofSeconds(20))
                .until(() -> client.apps()
                                .deployments()
                                .inNamespace(MockApi.NS)
                                .withName(name)
                                .get()
                        != null);
        return client.apps()
                .deployments()
                .inNamespace(MockApi.NS)
                .withName(name)
                .get();
    }

    /** What the Deployment controller would report: its pods ready. */
    void deploymentReady(String name, int ready) {
        client.apps().deployments().inNamespace(MockApi.NS).withName(name).editStatus(d -> {
            d.setStatus(new io.fabric8.kubernetes.api.model.apps.DeploymentStatus());
            d.getStatus().setReadyReplicas(ready);
            return d;
        });
    }

    <T extends HasMetadata> void awaitCondition(
            Class<T> kind, String name, Function<T, List<Condition>> conditions, String status, String reason) {
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(conditions.apply(client.resources(kind)
                                .inNamespace(MockApi.NS)
                                .withName(name)
                                .get()))
                        .anySatisfy(c -> {
                            assertThat(c.getType()).isEqualTo("Available");
                            assertThat(c.getStatus()).isEqualTo(status);
                            assertThat(c.getReason()).isEqualTo(reason);
                        }));
    }

    /** Every child is controlled by {@code owner}, so deleting it deletes them. */
    static void ownedBy(HasMetadata owner, HasMetadata... children) {
        for (HasMetadata child : children) {
            assertThat(child.getMetadata().getOwnerReferences()).singleElement().satisfies(o -> {
                assertThat(o.getKind()).isEqualTo(owner.getKind());
                assertThat(o.getUid()).isEqualTo(owner.getMetadata().getUid());
                assertThat(o.getController()).isTrue();
            });
        }
    }

    List<String> eventReasons(String name) {
        return client.v1().events().inNamespace(MockApi.NS).list().getItems().stream()
                .filter(e -> e.getInvolvedObject().getName().equals(name))
                .map(e -> e.getReason())
                .toList();
    }

    @Override
    public void close() {
        operator.close();
        api.close();
    }
}
