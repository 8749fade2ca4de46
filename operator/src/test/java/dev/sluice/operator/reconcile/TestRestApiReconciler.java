package dev.sluice.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.operator.crd.Controller;
import dev.sluice.operator.crd.RestApi;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The RestApi reconciler on the mock API server: sluice-restd replicas on the Controller's
 * slurm.conf with the Controller's JWT key and no cluster key, a Service, both owned by the
 * RestApi; the Controller itself then accepts auth/jwt with that key; without a Controller, or
 * one without a JWT key, a condition and an event, and no Deployment.
 */
class TestRestApiReconciler {
    private Operated op;

    @BeforeEach
    void start() throws Exception {
        op = new Operated();
    }

    @AfterEach
    void stop() {
        op.close();
    }

    @Test
    void runsSluiceRestdWithTheControllersJwtKeyAndConfiguration() {
        op.secret("jwt", "jwt_hs256.key", "k".repeat(32));
        Controller c = Resources.controller("lab", 6817, null);
        c.getSpec().jwtHs256KeyRef = new SecretKeySelector("jwt_hs256.key", "jwt", false);
        op.client.resource(c).create();
        RestApi api = op.client.resource(Resources.restApi("rest", "lab", 2)).create();
        var deployment = op.awaitDeployment("rest");

        assertThat(deployment.getSpec().getReplicas()).isEqualTo(2);
        var pod = deployment.getSpec().getTemplate().getSpec();
        var container = pod.getContainers().getFirst();
        assertThat(container.getCommand()).containsExactly("/opt/sluice/bin/sluice-restd");
        assertThat(container.getArgs()).containsExactly("-f", "/etc/slurm/slurm.conf", "0.0.0.0:6820");
        var sources = pod.getVolumes().getFirst().getProjected().getSources();
        assertThat(sources.get(0).getConfigMap().getName()).isEqualTo("lab-config");
        assertThat(sources.get(1).getSecret().getName()).isEqualTo("jwt");
        assertThat(sources.get(1).getSecret().getItems().getFirst().getPath()).isEqualTo("jwt_hs256.key");
        // It acts only with its callers' tokens: no cluster key in its pods.
        assertThat(sources)
                .hasSize(2)
                .noneMatch(s -> s.getSecret() != null
                        && MockApi.KEY_SECRET.equals(s.getSecret().getName()));
        // The Service is applied after the Deployment, in the same reconcile: wait for it too.
        var service = org.awaitility.Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .until(
                        () -> op.client
                                .services()
                                .inNamespace(MockApi.NS)
                                .withName("rest")
                                .get(),
                        s -> s != null);
        assertThat(service.getSpec().getPorts()).extracting(p -> p.getPort()).containsExactly(6820);
        Operated.ownedBy(api, deployment, service);
        op.awaitCondition(RestApi.class, "rest", x -> x.getStatus().conditions, "False", "ReplicasNotReady");
        assertThat(op.eventReasons("rest")).contains("DeploymentApplied");

        // The controller takes the tokens sluice-restd forwards: same key, same file name.
        org.awaitility.Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .ignoreExceptions()
                .untilAsserted(() -> {
                    assertThat(op.client
                                    .configMaps()
                                    .inNamespace(MockApi.NS)
                                    .withName("lab-config")
                                    .get()
                                    .getData()
                                    .get("slurm.conf"))
                            .contains(
                                    "AuthAltTypes=auth/jwt\n", "AuthAltParameters=jwt_key=/etc/slurm/jwt_hs256.key\n");
                    var ctld = op.client
                            .apps()
                            .statefulSets()
                            .inNamespace(MockApi.NS)
                            .withName("lab")
                            .get();
                    assertThat(ctld.getSpec()
                                    .getTemplate()
                                    .getSpec()
                                    .getVolumes()
                                    .getFirst()
                                    .getProjected()
                                    .getSources())
                            .anySatisfy(s -> assertThat(s.getSecret())
                                    .isNotNull()
                                    .satisfies(x -> assertThat(x.getName()).isEqualTo("jwt")));
                });

        op.deploymentReady("rest", 2);
        op.awaitCondition(RestApi.class, "rest", x -> x.getStatus().conditions, "True", "AllReplicasReady");
    }

    @Test
    void withoutAControllerOrItsJwtKeyThereIsNoRestDaemon() {
        op.client.resource(Resources.restApi("rest", "lab", 1)).create();
        op.awaitCondition(RestApi.class, "rest", x -> x.getStatus().conditions, "False", "ControllerNotFound");
        op.client.resource(Resources.controller("lab", 6817, null)).create();
        op.awaitCondition(RestApi.class, "rest", x -> x.getStatus().conditions, "False", "NoJwtKey");
        assertThat(op.eventReasons("rest")).contains("ControllerNotFound", "NoJwtKey");
        assertThat(op.client
                        .apps()
                        .deployments()
                        .inNamespace(MockApi.NS)
                        .withName("rest")
                        .get())
                .isNull();
    }
}
