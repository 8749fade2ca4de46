package dev.sluice.operator.reconcile;

import dev.sluice.operator.crd.Controller;
import dev.sluice.operator.crd.ControllerSpec;
import dev.sluice.operator.crd.NodeSet;
import dev.sluice.operator.crd.NodeSetPartition;
import dev.sluice.operator.crd.NodeSetSpec;
import dev.sluice.operator.crd.ServiceSpec;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.SecretKeySelector;

/** Custom resources as a user would write them, for tests. */
public final class Resources {
    private Resources() {}

    public static Controller controller(String name, int port, String extraConf) {
        Controller c = new Controller();
        c.setMetadata(
                new ObjectMetaBuilder().withName(name).withNamespace(MockApi.NS).build());
        ControllerSpec spec = new ControllerSpec();
        spec.slurmKeyRef = new SecretKeySelector("slurm.key", MockApi.KEY_SECRET, false);
        spec.service = new ServiceSpec();
        spec.service.port = port;
        spec.extraConf = extraConf;
        c.setSpec(spec);
        return c;
    }

    public static NodeSet nodeSet(String name, String controller, int replicas, long graceSeconds) {
        NodeSet s = new NodeSet();
        s.setMetadata(
                new ObjectMetaBuilder().withName(name).withNamespace(MockApi.NS).build());
        NodeSetSpec spec = new NodeSetSpec();
        spec.controllerRef = new LocalObjectReference(controller);
        spec.replicas = replicas;
        spec.scaleInGracePeriodSeconds = graceSeconds;
        spec.partition = new NodeSetPartition();
        spec.partition.enabled = true;
        spec.partition.config = "MaxTime=INFINITE";
        s.setSpec(spec);
        return s;
    }
}
