package dev.sluice.operator.e2e;

import dev.sluice.operator.render.Names;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Watches a NodeSet's pods through a rolling update, event by event (a watch, not polling, so no
 * moment is missed): the most ordinals out of service at once (no pod, a pod not ready, or one
 * drained for replacement), every pod deleted without having been drained first, and every pod
 * that was replaced.
 */
final class RollingObserver implements AutoCloseable {
    private final int replicas;
    private final String nodeSet;
    private final Map<String, Pod> pods = new TreeMap<>();
    private final List<String> deletedUndrained = new ArrayList<>();
    private final List<String> deleted = new ArrayList<>();
    private final SharedIndexInformer<Pod> informer;
    private int maxUnavailable;

    RollingObserver(KubernetesClient client, String namespace, String nodeSet, int replicas) {
        this.replicas = replicas;
        this.nodeSet = nodeSet;
        informer = client.pods()
                .inNamespace(namespace)
                .withLabel(Names.LABEL_NODESET, nodeSet)
                .inform(new ResourceEventHandler<>() {
                    @Override
                    public void onAdd(Pod pod) {
                        seen(pod);
                    }

                    @Override
                    public void onUpdate(Pod old, Pod pod) {
                        seen(pod);
                    }

                    @Override
                    public void onDelete(Pod pod, boolean finalStateUnknown) {
                        gone(pod);
                    }
                });
    }

    boolean synced() {
        return informer.hasSynced();
    }

    private synchronized void seen(Pod pod) {
        pods.put(pod.getMetadata().getName(), pod);
        if (pod.getMetadata().getDeletionTimestamp() != null) {
            checkDrained(pod);
        }
        count();
    }

    private synchronized void gone(Pod pod) {
        Pod last = pods.remove(pod.getMetadata().getName());
        checkDrained(last != null ? last : pod);
        deleted.add(pod.getMetadata().getName() + "/" + pod.getMetadata().getUid());
        count();
    }

    private void checkDrained(Pod pod) {
        var a = pod.getMetadata().getAnnotations();
        if (a == null || !a.containsKey(Names.ANNOTATION_DRAINED_AT)) {
            deletedUndrained.add(pod.getMetadata().getName());
        }
    }

    /** Ordinals 0..replicas-1 out of service now; the maximum means something from {@link #reset()} on. */
    private void count() {
        int out = 0;
        for (int i = 0; i < replicas; i++) {
            Pod p = pods.get(nodeSet + "-" + i);
            if (p == null || !inService(p)) {
                out++;
            }
        }
        maxUnavailable = Math.max(maxUnavailable, out);
    }

    private static boolean inService(Pod p) {
        var a = p.getMetadata().getAnnotations();
        var s = p.getStatus();
        return p.getMetadata().getDeletionTimestamp() == null
                && (a == null || !a.containsKey(Names.ANNOTATION_DRAINED_AT))
                && s != null
                && s.getConditions() != null
                && s.getConditions().stream()
                        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    /** Forgets what was seen so far: the pods now are the baseline, all in service. */
    synchronized void reset() {
        maxUnavailable = 0;
        count();
        deleted.clear();
        deletedUndrained.clear();
    }

    synchronized int maxUnavailable() {
        return maxUnavailable;
    }

    synchronized List<String> deletedUndrained() {
        return List.copyOf(deletedUndrained);
    }

    synchronized List<String> deleted() {
        return List.copyOf(deleted);
    }

    @Override
    public void close() {
        informer.close();
    }
}
