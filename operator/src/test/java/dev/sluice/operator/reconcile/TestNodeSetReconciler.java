package dev.sluice.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.operator.SluiceOperator;
import dev.sluice.operator.crd.NodeSet;
import dev.sluice.operator.render.Names;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The NodeSet reconciler against the mock API server, with the controller in memory: pods are
 * created with owner references up to the replicas; scale-in (through the scale subresource)
 * drains the idle nodes and deletes their pods while the busy node stays; a drained busy node's
 * pod goes when its job ends, or when the grace period has passed.
 */
class TestNodeSetReconciler {
    private MockApi api;
    private KubernetesClient client;
    private FakeCluster fake;
    private SluiceOperator operator;

    @BeforeEach
    void start() throws Exception {
        api = new MockApi(new byte[64]);
        client = api.client();
        fake = new FakeCluster();
        operator = new SluiceOperator(
                client,
                (k, c) -> fake,
                new MutableClock(() -> fake.now),
                SluiceOperator.Images.defaults(),
                Optional.empty());
        operator.start();
        client.resource(Resources.controller("lab", 6817, null)).create();
    }

    @AfterEach
    void stop() {
        operator.close();
        api.close();
    }

    private List<String> podNames() {
        return client.pods().inNamespace(MockApi.NS).withLabel(Names.LABEL_NODESET, "gpu").list().getItems().stream()
                .map(p -> p.getMetadata().getName())
                .sorted()
                .toList();
    }

    private void awaitPods(String... names) {
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(podNames()).containsExactly(names));
        for (String n : names) {
            fake.register(n);
        }
    }

    @Test
    void scaleInDrainsTheIdleNodesAndKeepsTheBusyOne() {
        NodeSet set = client.resource(Resources.nodeSet("gpu", "lab", 3, 600)).create();
        awaitPods("gpu-0", "gpu-1", "gpu-2");
        Pod pod = client.pods().inNamespace(MockApi.NS).withName("gpu-1").get();
        assertThat(pod.getMetadata().getOwnerReferences()).singleElement().satisfies(o -> {
            assertThat(o.getKind()).isEqualTo("NodeSet");
            assertThat(o.getUid()).isEqualTo(set.getMetadata().getUid());
            assertThat(o.getController()).isTrue();
        });
        assertThat(pod.getSpec().getContainers().getFirst().getArgs())
                .containsSubsequence("-Z", "--conf", "CPUs=1 Feature=gpu", "-N", "$(POD_NAME)")
                .containsSubsequence("--conf-server", "lab.hpc.svc.cluster.local:6817");
        fake.runJob("gpu-1", fake.now + 3600);

        client.resources(NodeSet.class).inNamespace(MockApi.NS).withName("gpu").scale(1);

        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(podNames()).containsExactly("gpu-1"));
        assertThat(fake.log).contains("drain gpu-0", "drain gpu-2").doesNotContain("drain gpu-1");
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            NodeSet s = client.resources(NodeSet.class)
                    .inNamespace(MockApi.NS)
                    .withName("gpu")
                    .get();
            assertThat(s.getStatus().replicas).isEqualTo(1);
            assertThat(s.getStatus().selector).isEqualTo("app.kubernetes.io/name=sluice,sluice.dev/nodeset=gpu");
            assertThat(s.getStatus().slurmAllocated).isEqualTo(1);
        });
        assertThat(client.v1().events().inNamespace(MockApi.NS).list().getItems())
                .extracting(e -> e.getReason() + " " + e.getMessage())
                .contains("PodDeleted deleted pod gpu-0 of drained node gpu-0");
    }

    @Test
    void aDrainedBusyNodeGoesWhenItsJobEndsOrItsGraceRunsOut() {
        client.resource(Resources.nodeSet("gpu", "lab", 2, 600)).create();
        awaitPods("gpu-0", "gpu-1");
        fake.runJob("gpu-0", fake.now + 3600);
        fake.runJob("gpu-1", fake.now + 3600);

        client.resources(NodeSet.class).inNamespace(MockApi.NS).withName("gpu").scale(0);

        await().atMost(Duration.ofSeconds(20)).until(() -> fake.log.containsAll(List.of("drain gpu-0", "drain gpu-1")));
        // Both stay while their jobs run and the grace period lasts.
        await().during(Duration.ofSeconds(3))
                .atMost(Duration.ofSeconds(5))
                .until(() -> podNames().size() == 2);
        assertThat(client.pods()
                        .inNamespace(MockApi.NS)
                        .withName("gpu-0")
                        .get()
                        .getMetadata()
                        .getAnnotations())
                .containsEntry(Names.ANNOTATION_DRAINED_AT, Long.toString(fake.now));

        fake.endJob("gpu-0");
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(podNames()).containsExactly("gpu-1"));
        fake.now += 600;
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(podNames()).isEmpty());
    }

    /** What the kubelet would report once a pod's daemon runs. */
    private void markReady(String pod) {
        client.pods().inNamespace(MockApi.NS).withName(pod).editStatus(p -> {
            p.setStatus(new io.fabric8.kubernetes.api.model.PodStatusBuilder()
                    .withPhase("Running")
                    .addNewCondition()
                    .withType("Ready")
                    .withStatus("True")
                    .endCondition()
                    .build());
            return p;
        });
    }

    private String image(String pod) {
        Pod p = client.pods().inNamespace(MockApi.NS).withName(pod).get();
        return p == null ? null : p.getSpec().getContainers().getFirst().getImage();
    }

    @Test
    void aNewImageRollsOneNodeAtATimeLeastWorkFirstAndWaitsForTheBusyOne() {
        client.resource(Resources.nodeSet("gpu", "lab", 3, 600)).create();
        awaitPods("gpu-0", "gpu-1", "gpu-2");
        List.of("gpu-0", "gpu-1", "gpu-2").forEach(this::markReady);
        fake.runJob("gpu-0", fake.now + 3600);

        // kubectl patch --type merge: no resourceVersion, so the operator's status writes do not conflict.
        client.resources(NodeSet.class)
                .inNamespace(MockApi.NS)
                .withName("gpu")
                .patch(
                        io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                                io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
                        "{\"spec\":{\"slurmd\":{\"image\":\"localhost/sluice-noded:v2\"}}}");

        // The idle nodes first, one at a time (maxUnavailable 1): gpu-1, then gpu-2.
        await().atMost(Duration.ofSeconds(20)).until(() -> "localhost/sluice-noded:v2".equals(image("gpu-1")));
        assertThat(fake.log).containsSubsequence("drain gpu-1").doesNotContain("drain gpu-2", "drain gpu-0");
        assertThat(image("gpu-2")).isEqualTo("localhost/sluice-noded:latest");
        // A replacement whose pod is ready but whose node has not registered still counts as
        // unavailable: the next node is not drained before it can take work.
        markReady("gpu-1");
        await().during(Duration.ofSeconds(2))
                .atMost(Duration.ofSeconds(4))
                .until(() -> !fake.log.contains("drain gpu-2"));
        fake.register("gpu-1");
        await().atMost(Duration.ofSeconds(20)).until(() -> "localhost/sluice-noded:v2".equals(image("gpu-2")));
        fake.register("gpu-2");
        markReady("gpu-2");
        // The busy node is drained last and keeps its pod while its job runs.
        await().atMost(Duration.ofSeconds(20)).until(() -> fake.log.contains("drain gpu-0"));
        await().during(Duration.ofSeconds(2))
                .atMost(Duration.ofSeconds(4))
                .until(() -> "localhost/sluice-noded:latest".equals(image("gpu-0")));
        fake.endJob("gpu-0");
        await().atMost(Duration.ofSeconds(20)).until(() -> "localhost/sluice-noded:v2".equals(image("gpu-0")));
        assertThat(podNames()).containsExactly("gpu-0", "gpu-1", "gpu-2");
    }

    @Test
    void scalingOutAgainResumesADrainingNodeInsteadOfAddingOne() {
        client.resource(Resources.nodeSet("gpu", "lab", 2, 600)).create();
        awaitPods("gpu-0", "gpu-1");
        fake.runJob("gpu-1", fake.now + 3600);
        client.resources(NodeSet.class).inNamespace(MockApi.NS).withName("gpu").scale(1);
        await().atMost(Duration.ofSeconds(20)).until(() -> fake.log.contains("drain gpu-0"));
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(podNames()).containsExactly("gpu-1"));

        fake.runJob("gpu-1", fake.now + 3600);
        client.resources(NodeSet.class).inNamespace(MockApi.NS).withName("gpu").scale(0);
        await().atMost(Duration.ofSeconds(20)).until(() -> fake.log.contains("drain gpu-1"));
        client.resources(NodeSet.class).inNamespace(MockApi.NS).withName("gpu").scale(2);

        await().atMost(Duration.ofSeconds(20)).until(() -> fake.log.contains("resume gpu-1"));
        awaitPods("gpu-0", "gpu-1");
        assertThat(client.pods()
                        .inNamespace(MockApi.NS)
                        .withName("gpu-1")
                        .get()
                        .getMetadata()
                        .getAnnotations())
                .doesNotContainKey(Names.ANNOTATION_DRAINED_AT);
    }
}
