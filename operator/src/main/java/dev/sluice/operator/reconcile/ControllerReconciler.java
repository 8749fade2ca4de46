package dev.sluice.operator.reconcile;

import dev.sluice.operator.cluster.Clusters;
import dev.sluice.operator.cluster.SluiceCluster.ClusterUnavailableException;
import dev.sluice.operator.crd.Accounting;
import dev.sluice.operator.crd.Controller;
import dev.sluice.operator.crd.ControllerStatus;
import dev.sluice.operator.crd.NodeSet;
import dev.sluice.operator.render.ControllerObjects;
import dev.sluice.operator.render.OperatorToken;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * Makes a Controller's children: the ConfigMap ({@code slurm.conf} with the partitions of the
 * NodeSets that name it), the headless Service and the StatefulSet, all owned by the Controller.
 * A NodeSet added or changed re-renders the ConfigMap (the NodeSet informer maps it to its
 * controller); the StatefulSet's pod template carries the configuration's hash, so a changed
 * configuration restarts the controller, which recovers its jobs from the state volume.
 */
@ControllerConfiguration(name = "controller")
public final class ControllerReconciler implements Reconciler<Controller> {
    private final Clusters clusters;
    private final Clock clock;
    private final String defaultImage;

    public ControllerReconciler(Clusters clusters, Clock clock, String defaultImage) {
        this.clusters = clusters;
        this.clock = clock;
        this.defaultImage = defaultImage;
    }

    @Override
    public List<EventSource<?, Controller>> prepareEventSources(EventSourceContext<Controller> context) {
        var nodeSets = InformerEventSourceConfiguration.from(NodeSet.class, Controller.class)
                .withSecondaryToPrimaryMapper((NodeSet s) -> s.getSpec() == null || s.getSpec().controllerRef == null
                        ? Set.of()
                        : Set.of(new ResourceID(
                                s.getSpec().controllerRef.getName(),
                                s.getMetadata().getNamespace())))
                .build();
        return List.of(new InformerEventSource<>(nodeSets, context));
    }

    @Override
    public UpdateControl<Controller> reconcile(Controller c, Context<Controller> context) {
        KubernetesClient client = context.getClient();
        String ns = c.getMetadata().getNamespace();
        String name = c.getMetadata().getName();
        ControllerStatus status = c.getStatus() != null ? c.getStatus() : new ControllerStatus();
        c.setStatus(status);
        Long generation = c.getMetadata().getGeneration();
        status.observedGeneration = generation;
        List<NodeSet> nodeSets = client.resources(NodeSet.class).inNamespace(ns).list().getItems().stream()
                .filter(s -> s.getSpec() != null
                        && s.getSpec().controllerRef != null
                        && name.equals(s.getSpec().controllerRef.getName()))
                .sorted((a, b) ->
                        a.getMetadata().getName().compareTo(b.getMetadata().getName()))
                .toList();
        Accounting accounting = c.getSpec().accountingRef == null
                ? null
                : client.resources(Accounting.class)
                        .inNamespace(ns)
                        .withName(c.getSpec().accountingRef.getName())
                        .get();
        ConfigMap config = ControllerObjects.configMap(c, nodeSets, accounting);
        boolean configChanged = Children.apply(client, c, config);
        Children.apply(client, c, ControllerObjects.service(c));
        Children.apply(client, c, ControllerObjects.statefulSet(c, defaultImage, hash(config)));
        if (c.getSpec().jwtHs256KeyRef != null
                && Children.apply(
                        client, c, OperatorToken.token(c, config.getData().get("slurm.conf")))) {
            Events.record(
                    client,
                    clock,
                    c,
                    "Normal",
                    "OperatorTokenApplied",
                    "the operator talks to this controller with Token " + OperatorToken.name(c));
        }
        if (configChanged) {
            Events.record(
                    client,
                    clock,
                    c,
                    "Normal",
                    "ConfigRendered",
                    "slurm.conf rendered with " + nodeSets.size() + " NodeSet(s)");
        }
        Pod pod = client.pods().inNamespace(ns).withName(name + "-0").get();
        boolean podReady = pod != null && PodReadiness.ready(pod);
        String unreachable = null;
        if (podReady) {
            try {
                clusters.forController(client, c).nodes();
            } catch (ClusterUnavailableException e) {
                unreachable = e.getMessage();
            }
        }
        boolean available = podReady && unreachable == null;
        var now = clock.instant();
        Conditions.set(
                status.conditions,
                "Available",
                available,
                !podReady ? "PodNotReady" : unreachable != null ? "Unreachable" : "Answering",
                !podReady
                        ? "pod " + name + "-0 is not ready"
                        : unreachable != null ? unreachable : "sluice-ctld answers",
                generation,
                now);
        return UpdateControl.patchStatus(c).rescheduleAfter(available ? Duration.ofSeconds(30) : Duration.ofSeconds(3));
    }

    static String hash(ConfigMap config) {
        return Hashes.of(config.getData());
    }
}
