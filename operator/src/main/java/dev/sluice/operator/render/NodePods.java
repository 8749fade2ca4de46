package dev.sluice.operator.render;

import dev.sluice.operator.crd.ContainerWrapper;
import dev.sluice.operator.crd.Controller;
import dev.sluice.operator.crd.NodeSet;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The pod of one NodeSet node: {@code sluice-noded -Z}, named after the pod, registering with
 * the controller's Service and fetching its configuration from it (configless), offering what
 * the container's limits say ({@code cpu}, {@code memory}, {@code nvidia.com/gpu}) and carrying
 * the NodeSet's name as a feature, which the controller's {@code NodeSet=} line groups on.
 */
public final class NodePods {
    public static final String GPU_RESOURCE = "nvidia.com/gpu";
    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    private NodePods() {}

    public static Pod pod(NodeSet set, Controller controller, int ordinal, String defaultImage) {
        Pod pod = unhashed(set, controller, ordinal, defaultImage);
        pod.getMetadata()
                .getAnnotations()
                .put(Names.ANNOTATION_TEMPLATE_HASH, templateHash(set, controller, defaultImage));
        return pod;
    }

    /**
     * What a NodeSet's pods are made from, as a hash: the pod of ordinal 0 without its names.
     * A pod whose annotation differs is outdated and is replaced by a rolling update.
     */
    public static String templateHash(NodeSet set, Controller controller, String defaultImage) {
        Pod pod = unhashed(set, controller, 0, defaultImage);
        pod.getSpec().setHostname(null);
        String text = JSON.asJson(pod.getSpec())
                + JSON.asJson(pod.getMetadata().getLabels())
                + JSON.asJson(pod.getMetadata().getAnnotations());
        try {
            byte[] d = java.security.MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return java.util.HexFormat.of().formatHex(d).substring(0, 16);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Pod unhashed(NodeSet set, Controller controller, int ordinal, String defaultImage) {
        String name = Names.nodePod(set, ordinal);
        ContainerWrapper slurmd = set.getSpec().slurmd != null ? set.getSpec().slurmd : new ContainerWrapper();
        List<String> args = new ArrayList<>(List.of(
                "-D",
                "-Z",
                "--conf",
                nodeConf(set),
                "-N",
                "$(POD_NAME)",
                "--addr",
                "$(POD_IP)",
                "--conf-server",
                Names.controllerHost(controller) + ":" + Names.ctldPort(controller),
                "--spool-dir",
                Names.SPOOL,
                "--key-file",
                Names.ETC + "/slurm.key"));
        if (slurmd.args != null) {
            args.addAll(slurmd.args);
        }
        List<EnvVar> env = new ArrayList<>(List.of(
                new EnvVarBuilder()
                        .withName("POD_NAME")
                        .withNewValueFrom()
                        .withNewFieldRef()
                        .withFieldPath("metadata.name")
                        .endFieldRef()
                        .endValueFrom()
                        .build(),
                new EnvVarBuilder()
                        .withName("POD_IP")
                        .withNewValueFrom()
                        .withNewFieldRef()
                        .withFieldPath("status.podIP")
                        .endFieldRef()
                        .endValueFrom()
                        .build()));
        if (slurmd.env != null) {
            env.addAll(slurmd.env);
        }
        PodSpec base = templateSpec(set.getSpec().template == null ? null : set.getSpec().template.spec);
        Map<String, String> labels = new LinkedHashMap<>();
        Map<String, String> annotations = new LinkedHashMap<>();
        var meta = set.getSpec().template == null ? null : set.getSpec().template.metadata;
        if (meta != null && meta.labels != null) {
            labels.putAll(meta.labels);
        }
        if (meta != null && meta.annotations != null) {
            annotations.putAll(meta.annotations);
        }
        labels.putAll(Names.nodeSetLabels(set));
        var key = controller.getSpec().slurmKeyRef;
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(set.getMetadata().getNamespace())
                .withLabels(labels)
                .withAnnotations(annotations)
                .endMetadata()
                .withSpec(base)
                .editSpec()
                .withHostname(name)
                .withSubdomain(set.getMetadata().getName())
                .withRestartPolicy("Always")
                // Scale-in drains first; a pod deleted otherwise gets what a node needs to hand
                // back its jobs: SIGTERM, then the noded's own drain-and-exit via preStop.
                .withTerminationGracePeriodSeconds(60L)
                .addToContainers(new ContainerBuilder()
                        .withName("slurmd")
                        .withImage(slurmd.image != null ? slurmd.image : defaultImage)
                        .withImagePullPolicy(slurmd.imagePullPolicy)
                        .withCommand("/opt/sluice/bin/sluice-noded")
                        .withArgs(args)
                        .withEnv(env)
                        .withResources(slurmd.resources)
                        .addNewPort()
                        .withName("slurmd")
                        .withContainerPort(6818)
                        .endPort()
                        .withVolumeMounts(
                                new VolumeMountBuilder()
                                        .withName("slurm-key")
                                        .withMountPath(Names.ETC + "/slurm.key")
                                        .withSubPath(key.getKey())
                                        .withReadOnly(true)
                                        .build(),
                                new VolumeMountBuilder()
                                        .withName("spool")
                                        .withMountPath(Names.SPOOL)
                                        .build())
                        .build())
                .addToVolumes(
                        new VolumeBuilder()
                                .withName("slurm-key")
                                .withNewSecret()
                                .withSecretName(key.getName())
                                .withDefaultMode(0400)
                                .endSecret()
                                .build(),
                        new VolumeBuilder()
                                .withName("spool")
                                .withNewEmptyDir()
                                .endEmptyDir()
                                .build())
                .endSpec()
                .build();
    }

    /** The node parameters given to {@code -Z --conf}: what the limits offer, the feature, extraConf. */
    public static String nodeConf(NodeSet set) {
        StringBuilder s = new StringBuilder();
        long cpus = cpus(set);
        s.append("CPUs=").append(cpus);
        long memory = memoryMb(set);
        if (memory > 0) {
            s.append(" RealMemory=").append(memory);
        }
        long gpus = gpus(set);
        if (gpus > 0) {
            s.append(" Gres=gpu:").append(gpus);
        }
        s.append(" Feature=").append(set.getMetadata().getName());
        String extra = set.getSpec().extraConf;
        if (extra != null && !extra.isBlank()) {
            s.append(' ').append(extra.strip());
        }
        return s.toString();
    }

    static long cpus(NodeSet set) {
        Quantity q = limit(set, "cpu");
        // Whole CPUs only: a fractional limit offers what it fully contains, at least one.
        return q == null ? 1 : Math.max(1, Quantity.getAmountInBytes(q).longValue());
    }

    static long memoryMb(NodeSet set) {
        Quantity q = limit(set, "memory");
        return q == null ? 0 : Quantity.getAmountInBytes(q).longValue() / (1024 * 1024);
    }

    public static long gpus(NodeSet set) {
        Quantity q = limit(set, GPU_RESOURCE);
        return q == null ? 0 : Quantity.getAmountInBytes(q).longValue();
    }

    private static Quantity limit(NodeSet set, String resource) {
        ContainerWrapper slurmd = set.getSpec().slurmd;
        ResourceRequirements r = slurmd == null ? null : slurmd.resources;
        if (r == null) {
            return null;
        }
        if (r.getLimits() != null && r.getLimits().containsKey(resource)) {
            return r.getLimits().get(resource);
        }
        return r.getRequests() == null ? null : r.getRequests().get(resource);
    }

    /** The template's partial PodSpec, or an empty one. */
    static PodSpec templateSpec(com.fasterxml.jackson.databind.JsonNode spec) {
        return spec == null || spec.isNull() ? new PodSpec() : JSON.convertValue(spec, PodSpec.class);
    }
}
