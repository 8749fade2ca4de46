package dev.sluice.operator.render;

import dev.sluice.operator.crd.ContainerWrapper;
import dev.sluice.operator.crd.PodTemplate;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.ServicePortBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Deployment and Service of a stateless Sluice daemon (sluice-dbd, sluice-restd, the login
 * pods' sluice-agent): one container the operator owns (command, ports, mounts) with what the
 * user set in the resource's {@link ContainerWrapper} (image, arguments after the operator's,
 * environment, resources), on the partial PodSpec of its {@link PodTemplate}.
 */
public final class Deployments {
    /** A daemon's pod as the operator wants it. */
    public record Daemon(
            String name,
            String namespace,
            Map<String, String> labels,
            int replicas,
            String container,
            String command,
            List<String> args,
            Map<String, Integer> ports,
            List<VolumeMount> mounts,
            List<Volume> volumes,
            PodSecurityContext security,
            Map<String, String> annotations) {}

    private Deployments() {}

    public static Deployment deployment(Daemon d, ContainerWrapper user, PodTemplate template, String defaultImage) {
        ContainerWrapper c = user != null ? user : new ContainerWrapper();
        List<String> args = new ArrayList<>(d.args());
        if (c.args != null) {
            args.addAll(c.args);
        }
        List<ContainerPort> ports = new ArrayList<>();
        d.ports()
                .forEach((name, port) -> ports.add(new ContainerPortBuilder()
                        .withName(name)
                        .withContainerPort(port)
                        .build()));
        PodSpec base = NodePods.templateSpec(template == null ? null : template.spec);
        Map<String, String> podLabels = new LinkedHashMap<>();
        Map<String, String> podAnnotations = new LinkedHashMap<>();
        if (template != null && template.metadata != null) {
            if (template.metadata.labels != null) {
                podLabels.putAll(template.metadata.labels);
            }
            if (template.metadata.annotations != null) {
                podAnnotations.putAll(template.metadata.annotations);
            }
        }
        podLabels.putAll(d.labels());
        podAnnotations.putAll(d.annotations());
        var container = new ContainerBuilder()
                .withName(d.container())
                .withImage(c.image != null ? c.image : defaultImage)
                .withImagePullPolicy(c.imagePullPolicy)
                .withCommand(d.command())
                .withArgs(args)
                .withEnv(c.env)
                .withResources(c.resources)
                .withPorts(ports)
                .withVolumeMounts(d.mounts());
        if (!ports.isEmpty()) {
            container
                    .withNewReadinessProbe()
                    .withNewTcpSocket()
                    .withPort(new IntOrString(ports.getFirst().getName()))
                    .endTcpSocket()
                    .withPeriodSeconds(10)
                    .endReadinessProbe();
        }
        return new DeploymentBuilder()
                .withNewMetadata()
                .withName(d.name())
                .withNamespace(d.namespace())
                .withLabels(d.labels())
                .endMetadata()
                .withNewSpec()
                .withReplicas(d.replicas())
                .withNewSelector()
                .withMatchLabels(d.labels())
                .endSelector()
                .withNewTemplate()
                .withNewMetadata()
                .withLabels(podLabels)
                .withAnnotations(podAnnotations)
                .endMetadata()
                .withSpec(base)
                .editSpec()
                .withSecurityContext(d.security())
                .addToContainers(container.build())
                .addAllToVolumes(d.volumes())
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
    }

    /** A ClusterIP Service in front of the daemon's ports. */
    public static Service service(Daemon d) {
        List<ServicePort> ports = new ArrayList<>();
        d.ports()
                .forEach((name, port) -> ports.add(new ServicePortBuilder()
                        .withName(name)
                        .withPort(port)
                        .withTargetPort(new IntOrString(port))
                        .build()));
        return new ServiceBuilder()
                .withNewMetadata()
                .withName(d.name())
                .withNamespace(d.namespace())
                .withLabels(d.labels())
                .endMetadata()
                .withNewSpec()
                .withSelector(d.labels())
                .withPorts(ports)
                .endSpec()
                .build();
    }
}
