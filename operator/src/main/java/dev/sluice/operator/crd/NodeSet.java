package dev.sluice.operator.crd;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A set of identical Sluice nodes: pods running {@code sluice-noded -Z} that register with the
 * controller dynamically. The operator manages the pods itself (no StatefulSet), so scale-in can
 * choose which pod goes: the node with least work, drained first. Has the {@code scale}
 * subresource, so {@code kubectl scale} and a HorizontalPodAutoscaler work.
 */
@Group(Controller.GROUP)
@Version(Controller.VERSION)
@ShortNames("nss")
public class NodeSet extends CustomResource<NodeSetSpec, NodeSetStatus> implements Namespaced {
    @Override
    protected NodeSetStatus initStatus() {
        return new NodeSetStatus();
    }
}
