package dev.sluice.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.operator.SluiceOperator;
import dev.sluice.operator.crd.Controller;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Controller reconciler on the mock API server: the ConfigMap's slurm.conf follows the
 * resource and its NodeSets, the StatefulSet keeps StateSaveLocation on a claim template and
 * restarts on a changed configuration, everything is owned by the Controller, and the status
 * says the pod is not ready (nothing runs it here).
 */
class TestControllerReconciler {
    private MockApi api;
    private KubernetesClient client;
    private SluiceOperator operator;

    @BeforeEach
    void start() throws Exception {
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

    @AfterEach
    void stop() {
        operator.close();
        api.close();
    }

    private ConfigMap config() {
        return client.configMaps()
                .inNamespace(MockApi.NS)
                .withName("lab-config")
                .get();
    }

    @Test
    void rendersConfigServiceAndStatefulSetOwnedByTheController() {
        Controller c = client.resource(Resources.controller("lab", 7000, "MinJobAge=60\nSelectTypeParameters=CR_CPU\n"))
                .create();
        await().atMost(Duration.ofSeconds(20)).until(() -> config() != null);
        assertThat(config().getData().get("slurm.conf"))
                .contains("ClusterName=lab\n")
                .contains("SlurmctldHost=lab-0(lab.hpc.svc.cluster.local)\n")
                .contains("SlurmctldPort=7000\n")
                .contains("StateSaveLocation=/var/spool/sluice/ctld\n")
                .contains("SelectTypeParameters=CR_CPU\n")
                .doesNotContain("CR_Core\n")
                .endsWith("PartitionName=all Nodes=ALL Default=YES MaxTime=INFINITE State=UP\nMinJobAge=60\n");
        assertThat(config().getData().get("sluice.conf"))
                .isEqualTo("SlurmctldGrpcPort=7100\nSlurmctldMetricsPort=9817\n");

        await().atMost(Duration.ofSeconds(20))
                .until(() -> client.apps()
                                .statefulSets()
                                .inNamespace(MockApi.NS)
                                .withName("lab")
                                .get()
                        != null);
        StatefulSet sts = client.apps()
                .statefulSets()
                .inNamespace(MockApi.NS)
                .withName("lab")
                .get();
        assertThat(sts.getSpec().getVolumeClaimTemplates()).singleElement().satisfies(pvc -> {
            assertThat(pvc.getMetadata().getName()).isEqualTo("state");
            assertThat(pvc.getSpec().getResources().getRequests().get("storage").toString())
                    .isEqualTo("1Gi");
        });
        var container = sts.getSpec().getTemplate().getSpec().getContainers().getFirst();
        assertThat(container.getArgs()).containsExactly("-D", "-f", "/etc/slurm/slurm.conf");
        assertThat(container.getVolumeMounts())
                .extracting(m -> m.getMountPath())
                .containsExactly("/etc/slurm", "/var/spool/sluice/ctld");
        Service svc = client.services().inNamespace(MockApi.NS).withName("lab").get();
        assertThat(svc.getSpec().getClusterIP()).isEqualTo("None");
        assertThat(svc.getSpec().getPorts()).extracting(p -> p.getPort()).containsExactly(7000, 7100, 9817);
        for (var child : java.util.List.of(config(), sts, svc)) {
            assertThat(child.getMetadata().getOwnerReferences()).singleElement().satisfies(o -> {
                assertThat(o.getKind()).isEqualTo("Controller");
                assertThat(o.getUid()).isEqualTo(c.getMetadata().getUid());
            });
        }
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(client.resources(Controller.class)
                                .inNamespace(MockApi.NS)
                                .withName("lab")
                                .get()
                                .getStatus()
                                .conditions)
                        .anySatisfy(cond -> {
                            assertThat(cond.getType()).isEqualTo("Available");
                            assertThat(cond.getStatus()).isEqualTo("False");
                            assertThat(cond.getReason()).isEqualTo("PodNotReady");
                        }));
    }

    @Test
    void aControllerWithAJwtKeyGetsTheOperatorsOwnTokenForSlurmUser() throws Exception {
        byte[] jwtKey = new byte[32];
        java.util.Arrays.fill(jwtKey, (byte) 7);
        client.resource(new io.fabric8.kubernetes.api.model.SecretBuilder()
                        .withNewMetadata()
                        .withName("jwt")
                        .withNamespace(MockApi.NS)
                        .endMetadata()
                        .addToData("k", java.util.Base64.getEncoder().encodeToString(jwtKey))
                        .build())
                .create();
        Controller c = Resources.controller("lab", 6817, "SlurmUser=admin\n");
        c.getSpec().jwtHs256KeyRef = new io.fabric8.kubernetes.api.model.SecretKeySelector("k", "jwt", false);
        c = client.resource(c).create();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> client.secrets()
                                .inNamespace(MockApi.NS)
                                .withName("lab-operator-token")
                                .get()
                        != null);
        var token = client.resources(dev.sluice.operator.crd.Token.class)
                .inNamespace(MockApi.NS)
                .withName("lab-operator")
                .get();
        assertThat(token.getSpec().username).isEqualTo("admin");
        assertThat(token.getSpec().refresh).isTrue();
        assertThat(token.getMetadata().getOwnerReferences()).singleElement().satisfies(o -> {
            assertThat(o.getKind()).isEqualTo("Controller");
            assertThat(o.getController()).isTrue();
        });
        String jwt = new String(
                java.util.Base64.getDecoder()
                        .decode(client.secrets()
                                .inNamespace(MockApi.NS)
                                .withName("lab-operator-token")
                                .get()
                                .getData()
                                .get("SLURM_JWT")),
                java.nio.charset.StandardCharsets.UTF_8);
        assertThat(new dev.sluice.common.auth.UserTokens(jwtKey)
                        .verify(jwt, java.time.Instant.ofEpochSecond(1_000_000)))
                .isEqualTo("admin");
        // Without a JWT key there is no token: the operator uses the cluster key.
        client.resource(Resources.controller("other", 6818, null)).create();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> client.apps()
                                .statefulSets()
                                .inNamespace(MockApi.NS)
                                .withName("other")
                                .get()
                        != null);
        assertThat(client.resources(dev.sluice.operator.crd.Token.class)
                        .inNamespace(MockApi.NS)
                        .withName("other-operator")
                        .get())
                .isNull();
    }

    @Test
    void aNodeSetAddsItsPartitionAndRollsTheControllerPod() {
        client.resource(Resources.controller("lab", 6817, null)).create();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> client.apps()
                                .statefulSets()
                                .inNamespace(MockApi.NS)
                                .withName("lab")
                                .get()
                        != null);
        String before = client.apps()
                .statefulSets()
                .inNamespace(MockApi.NS)
                .withName("lab")
                .get()
                .getSpec()
                .getTemplate()
                .getMetadata()
                .getAnnotations()
                .get("sluice.dev/config-hash");

        client.resource(Resources.nodeSet("gpu", "lab", 0, 60)).create();

        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(config().getData().get("slurm.conf"))
                        .contains("NodeSet=gpu Feature=gpu\n")
                        .contains("PartitionName=gpu Nodes=gpu State=UP MaxTime=INFINITE\n"));
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(client.apps()
                                .statefulSets()
                                .inNamespace(MockApi.NS)
                                .withName("lab")
                                .get()
                                .getSpec()
                                .getTemplate()
                                .getMetadata()
                                .getAnnotations()
                                .get("sluice.dev/config-hash"))
                        .isNotEqualTo(before));
    }
}
