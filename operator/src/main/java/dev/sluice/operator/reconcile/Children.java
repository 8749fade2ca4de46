package dev.sluice.operator.reconcile;

import dev.sluice.operator.crd.Token;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Objects;

/**
 * Creates or updates the objects a resource owns, writing only when what the operator renders
 * differs from what is there (a write would otherwise roll a Deployment's pods for nothing, and
 * wake every watcher).
 */
final class Children {
    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    private Children() {}

    /** Creates or updates {@code child}, owned by {@code owner}; true when created or changed. */
    static boolean apply(KubernetesClient client, HasMetadata owner, HasMetadata child) {
        Owners.ownedBy(child, owner);
        HasMetadata existing = client.resource(child).get();
        if (existing != null && sameContent(existing, child)) {
            return false;
        }
        client.resource(child).createOr(NonDeletingOperation::update);
        return true;
    }

    /**
     * Compared as JSON: a read-back object has empty lists where the rendered one has nulls, and
     * would otherwise never equal it (a write each reconcile, a rolled pod each time).
     */
    private static boolean sameContent(HasMetadata existing, HasMetadata wanted) {
        if (existing instanceof ConfigMap a && wanted instanceof ConfigMap b) {
            return same(a.getData(), b.getData());
        }
        if (existing instanceof Secret a && wanted instanceof Secret b) {
            return same(a.getData(), b.getData());
        }
        if (existing instanceof StatefulSet a && wanted instanceof StatefulSet b) {
            return same(a.getSpec().getTemplate(), b.getSpec().getTemplate());
        }
        if (existing instanceof Deployment a && wanted instanceof Deployment b) {
            return same(a.getSpec().getTemplate(), b.getSpec().getTemplate())
                    && Objects.equals(a.getSpec().getReplicas(), b.getSpec().getReplicas());
        }
        if (existing instanceof Service a && wanted instanceof Service b) {
            return same(a.getSpec().getPorts(), b.getSpec().getPorts());
        }
        if (existing instanceof Token a && wanted instanceof Token b) {
            return same(a.getSpec(), b.getSpec());
        }
        return false;
    }

    private static boolean same(Object a, Object b) {
        return JSON.asJson(a).equals(JSON.asJson(b));
    }

    /** A Deployment's pods ready as its controller reports them (0 before it reports). */
    static int readyReplicas(KubernetesClient client, Deployment d) {
        Deployment now = client.resource(d).get();
        return now == null || now.getStatus() == null || now.getStatus().getReadyReplicas() == null
                ? 0
                : now.getStatus().getReadyReplicas();
    }
}
