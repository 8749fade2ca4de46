package dev.sluice.operator.reconcile;

import dev.sluice.operator.crd.Accounting;
import dev.sluice.operator.crd.AccountingSpec;
import dev.sluice.operator.crd.Controller;
import dev.sluice.operator.crd.ControllerSpec;
import dev.sluice.operator.crd.LoginSet;
import dev.sluice.operator.crd.LoginSetSpec;
import dev.sluice.operator.crd.NodeSet;
import dev.sluice.operator.crd.NodeSetPartition;
import dev.sluice.operator.crd.NodeSetSpec;
import dev.sluice.operator.crd.RestApi;
import dev.sluice.operator.crd.RestApiSpec;
import dev.sluice.operator.crd.ServiceSpec;
import dev.sluice.operator.crd.StorageConfig;
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

    public static Accounting accounting(String name, String host, String passwordSecret) {
        Accounting a = new Accounting();
        a.setMetadata(
                new ObjectMetaBuilder().withName(name).withNamespace(MockApi.NS).build());
        AccountingSpec spec = new AccountingSpec();
        spec.slurmKeyRef = new SecretKeySelector("slurm.key", MockApi.KEY_SECRET, false);
        spec.storageConfig = new StorageConfig();
        spec.storageConfig.host = host;
        spec.storageConfig.username = "slurm";
        spec.storageConfig.passwordKeyRef = new SecretKeySelector("password", passwordSecret, false);
        a.setSpec(spec);
        return a;
    }

    public static RestApi restApi(String name, String controller, int replicas) {
        RestApi r = new RestApi();
        r.setMetadata(
                new ObjectMetaBuilder().withName(name).withNamespace(MockApi.NS).build());
        RestApiSpec spec = new RestApiSpec();
        spec.controllerRef = new LocalObjectReference(controller);
        spec.replicas = replicas;
        r.setSpec(spec);
        return r;
    }

    public static LoginSet loginSet(String name, String controller, String sssdSecret) {
        LoginSet l = new LoginSet();
        l.setMetadata(
                new ObjectMetaBuilder().withName(name).withNamespace(MockApi.NS).build());
        LoginSetSpec spec = new LoginSetSpec();
        spec.controllerRef = new LocalObjectReference(controller);
        spec.replicas = 1;
        spec.sssdConfRef = new SecretKeySelector("sssd.conf", sssdSecret, false);
        l.setSpec(spec);
        return l;
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
