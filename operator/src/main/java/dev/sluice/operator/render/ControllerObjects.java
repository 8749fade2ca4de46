package dev.sluice.operator.render;

import dev.sluice.operator.crd.Accounting;
import dev.sluice.operator.crd.ContainerWrapper;
import dev.sluice.operator.crd.Controller;
import dev.sluice.operator.crd.ControllerPersistence;
import dev.sluice.operator.crd.NodeSet;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link Controller}'s children: the ConfigMap with {@code slurm.conf} and {@code sluice.conf},
 * the headless Service that gives the controller pod its stable DNS name, and a one-replica
 * StatefulSet running {@code sluice-ctld} with StateSaveLocation on a claim from its template
 * (or an existing claim, or an emptyDir when persistence is disabled).
 */
public final class ControllerObjects {
    /** Where the controller serves Prometheus metrics in its pod. */
    public static final int METRICS_PORT = 9817;

    private ControllerObjects() {}

    public static ConfigMap configMap(Controller c, List<NodeSet> nodeSets) {
        return configMap(c, nodeSets, null);
    }

    /** @param accounting the Accounting {@code accountingRef} names, or null */
    public static ConfigMap configMap(Controller c, List<NodeSet> nodeSets, Accounting accounting) {
        return new ConfigMapBuilder()
                .withNewMetadata()
                .withName(Names.configMap(c.getMetadata().getName()))
                .withNamespace(c.getMetadata().getNamespace())
                .withLabels(Names.controllerLabels(c))
                .endMetadata()
                .addToData("slurm.conf", SlurmConfRenderer.slurmConf(c, nodeSets, accounting))
                .addToData("sluice.conf", SlurmConfRenderer.sluiceConf(c, METRICS_PORT))
                .build();
    }

    public static Service service(Controller c) {
        int port = Names.ctldPort(c);
        return new ServiceBuilder()
                .withNewMetadata()
                .withName(c.getMetadata().getName())
                .withNamespace(c.getMetadata().getNamespace())
                .withLabels(Names.controllerLabels(c))
                .endMetadata()
                .withNewSpec()
                .withClusterIP("None")
                // Node daemons must reach the controller while it starts (configless fetch retries).
                .withPublishNotReadyAddresses(true)
                .withSelector(Names.controllerLabels(c))
                .addNewPort()
                .withName("slurmctld")
                .withPort(port)
                .withTargetPort(new IntOrString(port))
                .endPort()
                .addNewPort()
                .withName("grpc")
                .withPort(port + Names.GRPC_OFFSET)
                .withTargetPort(new IntOrString(port + Names.GRPC_OFFSET))
                .endPort()
                .addNewPort()
                .withName("metrics")
                .withPort(METRICS_PORT)
                .withTargetPort(new IntOrString(METRICS_PORT))
                .endPort()
                .endSpec()
                .build();
    }

    public static StatefulSet statefulSet(Controller c, String defaultImage, String configHash) {
        String name = c.getMetadata().getName();
        int port = Names.ctldPort(c);
        ContainerWrapper ctld = c.getSpec().slurmctld != null ? c.getSpec().slurmctld : new ContainerWrapper();
        List<String> args = new ArrayList<>(List.of("-D", "-f", Names.ETC + "/slurm.conf"));
        if (ctld.args != null) {
            args.addAll(ctld.args);
        }
        ControllerPersistence persistence = c.getSpec().persistence;
        boolean persistent = persistence == null || persistence.enabled == null || persistence.enabled;
        boolean existing = persistent && persistence != null && persistence.existingClaim != null;
        PodSpec base = NodePods.templateSpec(c.getSpec().template == null ? null : c.getSpec().template.spec);
        Map<String, String> annotations = new LinkedHashMap<>();
        // A changed configuration rolls the pod, which then reads it (its state survives on the volume).
        annotations.put("sluice.dev/config-hash", configHash);
        var key = c.getSpec().slurmKeyRef;
        var builder = new StatefulSetBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(c.getMetadata().getNamespace())
                .withLabels(Names.controllerLabels(c))
                .endMetadata()
                .withNewSpec()
                .withReplicas(1)
                .withServiceName(name)
                .withNewSelector()
                .withMatchLabels(Names.controllerLabels(c))
                .endSelector()
                .withNewTemplate()
                .withNewMetadata()
                .withLabels(Names.controllerLabels(c))
                .withAnnotations(annotations)
                .endMetadata()
                .withSpec(base)
                .editSpec()
                .withTerminationGracePeriodSeconds(60L)
                .withNewSecurityContext()
                .withRunAsUser(999L)
                .withRunAsGroup(999L)
                .withFsGroup(999L)
                .endSecurityContext()
                .addToContainers(new ContainerBuilder()
                        .withName("slurmctld")
                        .withImage(ctld.image != null ? ctld.image : defaultImage)
                        .withImagePullPolicy(ctld.imagePullPolicy)
                        .withCommand("/opt/sluice/bin/sluice-ctld")
                        .withArgs(args)
                        .withEnv(ctld.env)
                        .withResources(ctld.resources)
                        .addNewPort()
                        .withName("slurmctld")
                        .withContainerPort(port)
                        .endPort()
                        .addNewPort()
                        .withName("grpc")
                        .withContainerPort(port + Names.GRPC_OFFSET)
                        .endPort()
                        .addNewPort()
                        .withName("metrics")
                        .withContainerPort(METRICS_PORT)
                        .endPort()
                        .withNewReadinessProbe()
                        .withNewTcpSocket()
                        .withPort(new IntOrString("slurmctld"))
                        .endTcpSocket()
                        .withPeriodSeconds(10)
                        .endReadinessProbe()
                        .withVolumeMounts(
                                new VolumeMountBuilder()
                                        .withName("etc-slurm")
                                        .withMountPath(Names.ETC)
                                        .withReadOnly(true)
                                        .build(),
                                new VolumeMountBuilder()
                                        .withName("state")
                                        .withMountPath(Names.STATE)
                                        .build())
                        .build())
                .addToVolumes(new VolumeBuilder()
                        .withName("etc-slurm")
                        .withNewProjected()
                        .withDefaultMode(0440)
                        .addNewSource()
                        .withNewConfigMap()
                        .withName(Names.configMap(name))
                        .endConfigMap()
                        .endSource()
                        .addNewSource()
                        .withNewSecret()
                        .withName(key.getName())
                        .addNewItem()
                        .withKey(key.getKey())
                        .withPath("slurm.key")
                        .endItem()
                        .endSecret()
                        .endSource()
                        .endProjected()
                        .build())
                .endSpec()
                .endTemplate()
                .endSpec();
        var jwt = c.getSpec().jwtHs256KeyRef;
        if (jwt != null) {
            builder.editSpec()
                    .editTemplate()
                    .editSpec()
                    .editMatchingVolume(v -> "etc-slurm".equals(v.getName()))
                    .editProjected()
                    .addNewSource()
                    .withNewSecret()
                    .withName(jwt.getName())
                    .addNewItem()
                    .withKey(jwt.getKey())
                    .withPath("jwt_hs256.key")
                    .endItem()
                    .endSecret()
                    .endSource()
                    .endProjected()
                    .endVolume()
                    .endSpec()
                    .endTemplate()
                    .endSpec();
        }
        if (!persistent) {
            builder.editSpec()
                    .editTemplate()
                    .editSpec()
                    .addNewVolume()
                    .withName("state")
                    .withNewEmptyDir()
                    .endEmptyDir()
                    .endVolume()
                    .endSpec()
                    .endTemplate()
                    .endSpec();
        } else if (existing) {
            builder.editSpec()
                    .editTemplate()
                    .editSpec()
                    .addNewVolume()
                    .withName("state")
                    .withNewPersistentVolumeClaim()
                    .withClaimName(persistence.existingClaim)
                    .endPersistentVolumeClaim()
                    .endVolume()
                    .endSpec()
                    .endTemplate()
                    .endSpec();
        } else {
            builder.editSpec()
                    .addToVolumeClaimTemplates(new PersistentVolumeClaimBuilder()
                            .withNewMetadata()
                            .withName("state")
                            .endMetadata()
                            .withNewSpec()
                            .withAccessModes(
                                    persistence != null && persistence.accessModes != null
                                            ? persistence.accessModes
                                            : List.of("ReadWriteOnce"))
                            .withStorageClassName(persistence == null ? null : persistence.storageClassName)
                            .withNewResources()
                            .addToRequests(
                                    "storage",
                                    new Quantity(
                                            persistence != null && persistence.storage != null
                                                    ? persistence.storage
                                                    : "1Gi"))
                            .endResources()
                            .endSpec()
                            .build())
                    .endSpec();
        }
        return builder.build();
    }
}
