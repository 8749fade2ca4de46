package dev.sluice.operator.reconcile;

import dev.sluice.common.scalein.ScaleInRanking.Candidate;
import dev.sluice.operator.cluster.Clusters;
import dev.sluice.operator.cluster.SluiceCluster;
import dev.sluice.operator.cluster.SluiceCluster.ClusterUnavailableException;
import dev.sluice.operator.crd.Controller;
import dev.sluice.operator.crd.NodeSet;
import dev.sluice.operator.crd.NodeSetStatus;
import dev.sluice.operator.render.Names;
import dev.sluice.operator.render.NodePods;
import dev.sluice.operator.scale.ScalePlan;
import dev.sluice.operator.scale.ScalePlan.PodView;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Keeps a NodeSet's pods at {@code spec.replicas}. Scale-out creates pods (ordinals lowest free
 * first) whose node daemons register with the controller; scale-in drains the nodes with least
 * work first ({@code scontrol update nodename=X state=drain}), waits until their jobs end, at
 * most {@code scaleInGracePeriodSeconds}, then deletes the pods and forgets the nodes. A changed
 * template rolls the pods ({@code updateStrategy}): at most {@code maxUnavailable} at a time,
 * least work first, each drained and deleted as in scale-in, then created again. Without a
 * reachable controller it creates but never removes: it cannot tell which nodes are busy.
 */
@ControllerConfiguration(name = "nodeset")
public final class NodeSetReconciler implements Reconciler<NodeSet> {
    static final long DEFAULT_GRACE_SECONDS = 3600;
    static final String DRAIN_REASON = "scale-in by sluice-operator";
    static final String UPDATE_REASON = "rolling update by sluice-operator";

    private final Clusters clusters;
    private final Clock clock;
    private final String defaultImage;

    public NodeSetReconciler(Clusters clusters, Clock clock, String defaultImage) {
        this.clusters = clusters;
        this.clock = clock;
        this.defaultImage = defaultImage;
    }

    @Override
    public List<EventSource<?, NodeSet>> prepareEventSources(EventSourceContext<NodeSet> context) {
        var pods = InformerEventSourceConfiguration.from(Pod.class, NodeSet.class)
                .withLabelSelector(Names.LABEL_NODESET)
                .withSecondaryToPrimaryMapper(Mappers.fromOwnerReferences(NodeSet.class))
                .build();
        return List.of(new InformerEventSource<>(pods, context));
    }

    @Override
    public UpdateControl<NodeSet> reconcile(NodeSet set, Context<NodeSet> context) {
        KubernetesClient client = context.getClient();
        String ns = set.getMetadata().getNamespace();
        NodeSetStatus status = set.getStatus() != null ? set.getStatus() : new NodeSetStatus();
        set.setStatus(status);
        Long generation = set.getMetadata().getGeneration();
        status.observedGeneration = generation;
        status.selector = Names.selectorString(set);
        Controller controller = client.resources(Controller.class)
                .inNamespace(ns)
                .withName(set.getSpec().controllerRef.getName())
                .get();
        if (controller == null) {
            Conditions.set(
                    status.conditions,
                    "Available",
                    false,
                    "ControllerNotFound",
                    "Controller " + set.getSpec().controllerRef.getName() + " does not exist",
                    generation,
                    clock.instant());
            return UpdateControl.patchStatus(set).rescheduleAfter(Duration.ofSeconds(10));
        }
        List<Pod> pods = client.pods()
                .inNamespace(ns)
                .withLabels(Names.nodeSetSelector(set))
                .list()
                .getItems();
        int replicas = set.getSpec().replicas == null ? 1 : set.getSpec().replicas;
        long grace = set.getSpec().scaleInGracePeriodSeconds == null
                ? DEFAULT_GRACE_SECONDS
                : set.getSpec().scaleInGracePeriodSeconds;
        long now = clock.instant().getEpochSecond();
        Optional<SluiceCluster> cluster = Optional.empty();
        List<Candidate> ranking = List.of();
        List<SluiceCluster.Node> nodes = List.of();
        String unreachable = null;
        try {
            SluiceCluster c = clusters.forController(client, controller);
            List<String> names = pods.stream()
                    .map(p -> p.getMetadata().getName())
                    .filter(n -> Names.ordinal(set, n) >= 0)
                    .toList();
            ranking = c.scaleInRanking(names);
            nodes = c.nodes();
            cluster = Optional.of(c);
        } catch (ClusterUnavailableException e) {
            unreachable = e.getMessage();
        }
        String hash = NodePods.templateHash(set, controller, defaultImage);
        Set<String> serving = new HashSet<>();
        nodes.stream().filter(n -> !n.down()).forEach(n -> serving.add(n.name()));
        List<PodView> views = new ArrayList<>();
        for (Pod p : pods) {
            int ordinal = Names.ordinal(set, p.getMetadata().getName());
            if (ordinal >= 0) {
                views.add(view(p, ordinal, hash, serving));
            }
        }
        int rolling = cluster.isPresent() ? maxUnavailable(set, replicas) : 0;
        ScalePlan.Actions plan = ScalePlan.plan(replicas, views, ranking, now, grace, rolling);
        for (int ordinal : plan.create()) {
            Pod pod = Owners.ownedBy(NodePods.pod(set, controller, ordinal, defaultImage), set);
            client.pods().inNamespace(ns).resource(pod).create();
            Events.record(
                    client,
                    clock,
                    set,
                    "Normal",
                    "PodCreated",
                    "created pod " + pod.getMetadata().getName());
        }
        boolean scalingIn = false;
        if (cluster.isPresent()) {
            SluiceCluster c = cluster.get();
            for (String name : plan.resume()) {
                act(() -> c.resume(name));
                client.pods().inNamespace(ns).withName(name).edit(p -> {
                    p.getMetadata().getAnnotations().remove(Names.ANNOTATION_DRAINED_AT);
                    return p;
                });
                Events.record(client, clock, set, "Normal", "NodeResumed", "node " + name + " resumed: needed again");
            }
            for (String name : plan.drain()) {
                if (!act(() -> c.drain(name, DRAIN_REASON))) {
                    continue;
                }
                client.pods().inNamespace(ns).withName(name).edit(p -> {
                    p.getMetadata().getAnnotations().put(Names.ANNOTATION_DRAINED_AT, Long.toString(now));
                    return p;
                });
                Events.record(
                        client,
                        clock,
                        set,
                        "Normal",
                        "NodeDraining",
                        "node " + name + " drained for scale-in; its pod goes when its jobs end (at most " + grace
                                + "s)");
            }
            for (String name : plan.replace()) {
                if (!act(() -> c.drain(name, UPDATE_REASON))) {
                    continue;
                }
                client.pods().inNamespace(ns).withName(name).edit(p -> {
                    p.getMetadata().getAnnotations().put(Names.ANNOTATION_DRAINED_AT, Long.toString(now));
                    p.getMetadata().getAnnotations().put(Names.ANNOTATION_REPLACING, "true");
                    return p;
                });
                Events.record(
                        client,
                        clock,
                        set,
                        "Normal",
                        "NodeReplacing",
                        "node " + name + " drained for a rolling update; its pod is replaced when its jobs end");
            }
            for (String name : plan.delete()) {
                client.pods().inNamespace(ns).withName(name).delete();
                Events.record(
                        client, clock, set, "Normal", "PodDeleted", "deleted pod " + name + " of drained node " + name);
            }
            forgetNodesWithoutPods(set, c, nodes, views, plan.delete());
            resumeNodesLeftDrained(c, nodes, views, plan);
            scalingIn = views.stream()
                            .anyMatch(v -> !v.terminating() && v.drainedAt().isPresent())
                    || !plan.drain().isEmpty();
        }
        updateStatus(set, status, pods, nodes, replicas, unreachable, scalingIn);
        // A node registering or a rolling update in progress changes nothing in the API: look again soon.
        boolean rollingOn =
                rolling > 0 && views.stream().anyMatch(v -> !v.terminating() && (v.outdated() || !v.ready()));
        boolean busy = !plan.idle() || scalingIn || rollingOn || status.readyReplicas < replicas;
        return UpdateControl.patchStatus(set).rescheduleAfter(busy ? Duration.ofSeconds(1) : Duration.ofSeconds(30));
    }

    /** Slinky's updateStrategy: RollingUpdate (default) with maxUnavailable (default 1), or OnDelete (0). */
    static int maxUnavailable(NodeSet set, int replicas) {
        var strategy = set.getSpec().updateStrategy;
        if (strategy != null && "OnDelete".equals(strategy.type)) {
            return 0;
        }
        var max = strategy == null || strategy.rollingUpdate == null ? null : strategy.rollingUpdate.maxUnavailable;
        if (max == null) {
            return 1;
        }
        if (max.getIntVal() != null) {
            return Math.max(1, max.getIntVal());
        }
        String percent = max.getStrVal().replace("%", "").strip();
        return Math.max(1, replicas * Integer.parseInt(percent) / 100);
    }

    /**
     * A pod counts as ready for a rolling update once the kubelet says so and its node daemon has
     * registered and answers ({@code serving}): a pod that merely started would let the next
     * node be drained while the replacement cannot take work yet.
     */
    private static PodView view(Pod p, int ordinal, String hash, Set<String> serving) {
        var annotations = p.getMetadata().getAnnotations();
        String drained = annotations == null ? null : annotations.get(Names.ANNOTATION_DRAINED_AT);
        Optional<Long> at = Optional.empty();
        if (drained != null) {
            try {
                at = Optional.of(Long.parseLong(drained));
            } catch (NumberFormatException e) {
                at = Optional.of(0L);
            }
        }
        return new PodView(
                p.getMetadata().getName(),
                ordinal,
                at,
                p.getMetadata().getDeletionTimestamp() != null,
                annotations != null && annotations.containsKey(Names.ANNOTATION_REPLACING),
                annotations == null || !hash.equals(annotations.get(Names.ANNOTATION_TEMPLATE_HASH)),
                PodReadiness.ready(p) && serving.contains(p.getMetadata().getName()));
    }

    /** Dynamic node records of this NodeSet whose pods are gone: {@code scontrol delete}. */
    private static void forgetNodesWithoutPods(
            NodeSet set, SluiceCluster c, List<SluiceCluster.Node> nodes, List<PodView> views, List<String> deleted) {
        Set<String> live = new HashSet<>();
        views.stream().filter(v -> !v.terminating()).forEach(v -> live.add(v.name()));
        live.removeAll(deleted);
        for (SluiceCluster.Node n : nodes) {
            if (Names.ordinal(set, n.name()) >= 0 && !live.contains(n.name())) {
                act(() -> c.delete(n.name()));
            }
        }
    }

    /**
     * A pod in service whose node is still drained by the operator (its record outlived a replaced
     * or resumed pod) is resumed: only the operator's own drains, never an administrator's.
     */
    private static void resumeNodesLeftDrained(
            SluiceCluster c, List<SluiceCluster.Node> nodes, List<PodView> views, ScalePlan.Actions plan) {
        Set<String> inService = new HashSet<>();
        views.stream().filter(v -> !v.terminating() && v.drainedAt().isEmpty()).forEach(v -> inService.add(v.name()));
        inService.removeAll(plan.drain());
        inService.removeAll(plan.replace());
        for (SluiceCluster.Node n : nodes) {
            if (inService.contains(n.name())
                    && n.drained()
                    && (DRAIN_REASON.equals(n.reason()) || UPDATE_REASON.equals(n.reason()))) {
                act(() -> c.resume(n.name()));
            }
        }
    }

    private void updateStatus(
            NodeSet set,
            NodeSetStatus status,
            List<Pod> pods,
            List<SluiceCluster.Node> nodes,
            int replicas,
            String unreachable,
            boolean scalingIn) {
        int current = 0;
        int ready = 0;
        Set<String> names = new HashSet<>();
        for (Pod p : pods) {
            if (p.getMetadata().getDeletionTimestamp() != null) {
                continue;
            }
            current++;
            names.add(p.getMetadata().getName());
            if (PodReadiness.ready(p)) {
                ready++;
            }
        }
        status.replicas = current;
        status.readyReplicas = ready;
        status.availableReplicas = ready;
        status.unavailableReplicas = Math.max(0, replicas - ready);
        int idle = 0;
        int allocated = 0;
        int down = 0;
        int drain = 0;
        for (SluiceCluster.Node n : nodes) {
            if (!names.contains(n.name())) {
                continue;
            }
            if (n.down()) {
                down++;
            } else if (n.drained()) {
                drain++;
            } else if (n.idle()) {
                idle++;
            } else {
                allocated++;
            }
        }
        status.slurmIdle = idle;
        status.slurmAllocated = allocated;
        status.slurmDown = down;
        status.slurmDrain = drain;
        Long generation = set.getMetadata().getGeneration();
        var now = clock.instant();
        Conditions.set(
                status.conditions,
                "ControllerReachable",
                unreachable == null,
                unreachable == null ? "Reachable" : "Unreachable",
                unreachable == null ? "" : unreachable,
                generation,
                now);
        Conditions.set(
                status.conditions,
                "Available",
                ready >= replicas,
                ready >= replicas ? "AllReplicasReady" : "ReplicasNotReady",
                ready + "/" + replicas + " pods ready",
                generation,
                now);
        Conditions.set(
                status.conditions,
                "ScalingIn",
                scalingIn,
                scalingIn ? "Draining" : "Steady",
                scalingIn ? "waiting for drained nodes' jobs to end" : "",
                generation,
                now);
    }

    private interface ClusterAction {
        void run() throws ClusterUnavailableException;
    }

    private static boolean act(ClusterAction action) {
        try {
            action.run();
            return true;
        } catch (ClusterUnavailableException e) {
            return false;
        }
    }
}
