package dev.sluice.operator.render;

import dev.sluice.operator.crd.Controller;
import dev.sluice.operator.crd.LoginSet;
import io.fabric8.kubernetes.api.model.PodSecurityContextBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A {@link LoginSet}'s Deployment: login pods running {@code sluice-agent} (as root, as its unit
 * does: it signs its callers' commands with the cluster key) on the Controller's slurm.conf, the
 * cluster key owner-only beside it, and the users' {@code sssd.conf} from {@code sssdConfRef}
 * at {@code /etc/sssd/sssd.conf} (0600, as sssd demands). Users get in with {@code kubectl exec};
 * the login image runs no sshd, so no Service is made.
 */
public final class LoginObjects {
    public static final String SSSD_CONF = "/etc/sssd/sssd.conf";

    private LoginObjects() {}

    public static Deployment deployment(LoginSet set, Controller c, String defaultImage) {
        var key = c.getSpec().slurmKeyRef;
        List<Volume> volumes = new ArrayList<>();
        List<VolumeMount> mounts = new ArrayList<>();
        volumes.add(new VolumeBuilder()
                .withName("etc-slurm")
                .withNewProjected()
                .withDefaultMode(0400)
                .addNewSource()
                .withNewConfigMap()
                .withName(Names.configMap(c.getMetadata().getName()))
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
                .build());
        mounts.add(new VolumeMountBuilder()
                .withName("etc-slurm")
                .withMountPath(Names.ETC)
                .withReadOnly(true)
                .build());
        var sssd = set.getSpec().sssdConfRef;
        if (sssd != null) {
            volumes.add(new VolumeBuilder()
                    .withName("sssd-conf")
                    .withNewSecret()
                    .withSecretName(sssd.getName())
                    .addNewItem()
                    .withKey(sssd.getKey())
                    .withPath("sssd.conf")
                    .withMode(0600)
                    .endItem()
                    .endSecret()
                    .build());
            mounts.add(new VolumeMountBuilder()
                    .withName("sssd-conf")
                    .withMountPath(SSSD_CONF)
                    .withSubPath("sssd.conf")
                    .withReadOnly(true)
                    .build());
        }
        var daemon = new Deployments.Daemon(
                set.getMetadata().getName(),
                set.getMetadata().getNamespace(),
                Names.componentLabels(set.getMetadata().getName(), "login"),
                set.getSpec().replicas == null ? 1 : set.getSpec().replicas,
                "login",
                "/opt/sluice/bin/sluice-agent",
                List.of("-D", "--conf", Names.ETC + "/slurm.conf"),
                Map.of(),
                mounts,
                volumes,
                new PodSecurityContextBuilder().withRunAsUser(0L).build(),
                Map.of());
        return Deployments.deployment(daemon, set.getSpec().login, set.getSpec().template, defaultImage);
    }
}
