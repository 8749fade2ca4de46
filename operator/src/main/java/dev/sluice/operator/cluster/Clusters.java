package dev.sluice.operator.cluster;

import dev.sluice.operator.crd.Controller;
import io.fabric8.kubernetes.client.KubernetesClient;

/** The {@link SluiceCluster} behind a Controller resource. */
@FunctionalInterface
public interface Clusters {
    /** @throws SluiceCluster.ClusterUnavailableException its key Secret is missing or unreadable */
    SluiceCluster forController(KubernetesClient client, Controller controller)
            throws SluiceCluster.ClusterUnavailableException;
}
