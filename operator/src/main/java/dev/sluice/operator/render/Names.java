package dev.sluice.operator.render;

import dev.sluice.operator.crd.Controller;
import dev.sluice.operator.crd.NodeSet;
import java.util.LinkedHashMap;
import java.util.Map;

/** Names, labels and well-known ports of the objects the operator makes. */
public final class Names {
    public static final String LABEL_NAME = "app.kubernetes.io/name";
    public static final String LABEL_INSTANCE = "app.kubernetes.io/instance";
    public static final String LABEL_COMPONENT = "app.kubernetes.io/component";
    public static final String LABEL_MANAGED_BY = "app.kubernetes.io/managed-by";
    public static final String LABEL_CONTROLLER = "sluice.dev/controller";
    public static final String LABEL_NODESET = "sluice.dev/nodeset";
    /** On a NodeSet pod being scaled in: the epoch second its node was drained. */
    public static final String ANNOTATION_DRAINED_AT = "sluice.dev/drained-at";
    /** On a NodeSet pod drained for a rolling update: it is replaced, not removed. */
    public static final String ANNOTATION_REPLACING = "sluice.dev/replacing";
    /** On a NodeSet pod: the hash of the template it was made from. */
    public static final String ANNOTATION_TEMPLATE_HASH = "sluice.dev/template-hash";

    public static final int DEFAULT_CTLD_PORT = 6817;
    public static final int DEFAULT_DBD_PORT = 6819;
    public static final int DEFAULT_RESTD_PORT = 6820;
    /** sluice.conf's default: the controller's gRPC port is SlurmctldPort + 100. */
    public static final int GRPC_OFFSET = 100;

    public static final String ETC = "/etc/slurm";
    public static final String STATE = "/var/spool/sluice/ctld";
    public static final String SPOOL = "/var/spool/sluice/slurmd";
    /** The controller's (and the REST daemon's) auth/jwt key, projected from jwtHs256KeyRef. */
    public static final String JWT_KEY = ETC + "/jwt_hs256.key";

    private Names() {}

    public static String configMap(String controller) {
        return controller + "-config";
    }

    /** The controller's DNS name in the cluster: its (headless) Service. */
    public static String controllerHost(Controller c) {
        return c.getMetadata().getName() + "." + c.getMetadata().getNamespace() + ".svc.cluster.local";
    }

    /** A Service's DNS name in the cluster. */
    public static String serviceHost(io.fabric8.kubernetes.api.model.HasMetadata owner) {
        return owner.getMetadata().getName() + "." + owner.getMetadata().getNamespace() + ".svc.cluster.local";
    }

    /** A daemon's port: the resource's {@code service.port}, or the daemon's default. */
    public static int port(dev.sluice.operator.crd.ServiceSpec service, int defaultPort) {
        return service != null && service.port != null && service.port > 0 ? service.port : defaultPort;
    }

    public static int ctldPort(Controller c) {
        var service = c.getSpec().service;
        return service != null && service.port != null && service.port > 0 ? service.port : DEFAULT_CTLD_PORT;
    }

    public static String clusterName(Controller c) {
        String name = c.getSpec().clusterName;
        return name == null || name.isBlank() ? c.getMetadata().getName() : name;
    }

    /** The pod, and Sluice node, of a NodeSet ordinal. */
    public static String nodePod(NodeSet set, int ordinal) {
        return set.getMetadata().getName() + "-" + ordinal;
    }

    /** The ordinal of a NodeSet pod's name, or -1. */
    public static int ordinal(NodeSet set, String podName) {
        String prefix = set.getMetadata().getName() + "-";
        if (!podName.startsWith(prefix)) {
            return -1;
        }
        try {
            return Integer.parseInt(podName.substring(prefix.length()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    public static Map<String, String> controllerLabels(Controller c) {
        Map<String, String> l = common(c.getMetadata().getName(), "controller");
        l.put(LABEL_CONTROLLER, c.getMetadata().getName());
        return l;
    }

    /** The selector of a NodeSet's pods (also the scale subresource's). */
    public static Map<String, String> nodeSetSelector(NodeSet set) {
        Map<String, String> l = new LinkedHashMap<>();
        l.put(LABEL_NAME, "sluice");
        l.put(LABEL_NODESET, set.getMetadata().getName());
        return l;
    }

    public static String selectorString(NodeSet set) {
        StringBuilder s = new StringBuilder();
        nodeSetSelector(set)
                .forEach((k, v) ->
                        s.append(s.isEmpty() ? "" : ",").append(k).append('=').append(v));
        return s.toString();
    }

    public static Map<String, String> nodeSetLabels(NodeSet set) {
        Map<String, String> l = common(set.getMetadata().getName(), "noded");
        l.putAll(nodeSetSelector(set));
        l.put(LABEL_CONTROLLER, set.getSpec().controllerRef.getName());
        return l;
    }

    /** The labels (and selector) of a component's pods: {@code accounting}, {@code restapi}, {@code login}. */
    public static Map<String, String> componentLabels(String instance, String component) {
        return common(instance, component);
    }

    private static Map<String, String> common(String instance, String component) {
        Map<String, String> l = new LinkedHashMap<>();
        l.put(LABEL_NAME, "sluice");
        l.put(LABEL_INSTANCE, instance);
        l.put(LABEL_COMPONENT, component);
        l.put(LABEL_MANAGED_BY, "sluice-operator");
        return l;
    }
}
