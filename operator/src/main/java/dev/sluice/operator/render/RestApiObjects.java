package dev.sluice.operator.render;

import dev.sluice.operator.crd.Controller;
import dev.sluice.operator.crd.RestApi;
import io.fabric8.kubernetes.api.model.PodSecurityContextBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.List;
import java.util.Map;

/**
 * A {@link RestApi}'s children: a Deployment of {@code sluice-restd} reading the Controller's
 * slurm.conf (its ConfigMap) with the Controller's JWT key beside it ({@code jwtHs256KeyRef}:
 * the daemon accepts exactly the tokens the controller accepts, and forwards them), and a
 * Service on its port. It gets no cluster key: it acts only with its callers' tokens.
 */
public final class RestApiObjects {
    private RestApiObjects() {}

    public static int port(RestApi api) {
        return Names.port(api.getSpec().service, Names.DEFAULT_RESTD_PORT);
    }

    public static Service service(RestApi api, Controller c) {
        return Deployments.service(daemon(api, c));
    }

    public static Deployment deployment(RestApi api, Controller c, String defaultImage) {
        return Deployments.deployment(daemon(api, c), api.getSpec().slurmrestd, api.getSpec().template, defaultImage);
    }

    private static Deployments.Daemon daemon(RestApi api, Controller c) {
        int port = port(api);
        var jwt = c.getSpec().jwtHs256KeyRef;
        var etc = new VolumeBuilder()
                .withName("etc-slurm")
                .withNewProjected()
                .withDefaultMode(0440)
                .addNewSource()
                .withNewConfigMap()
                .withName(Names.configMap(c.getMetadata().getName()))
                .endConfigMap()
                .endSource()
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
                .build();
        return new Deployments.Daemon(
                api.getMetadata().getName(),
                api.getMetadata().getNamespace(),
                Names.componentLabels(api.getMetadata().getName(), "restapi"),
                api.getSpec().replicas == null ? 1 : api.getSpec().replicas,
                "slurmrestd",
                "/opt/sluice/bin/sluice-restd",
                List.of("-f", Names.ETC + "/slurm.conf", "0.0.0.0:" + port),
                Map.of("slurmrestd", port),
                List.of(new VolumeMountBuilder()
                        .withName("etc-slurm")
                        .withMountPath(Names.ETC)
                        .withReadOnly(true)
                        .build()),
                List.of(etc),
                new PodSecurityContextBuilder()
                        .withRunAsUser(999L)
                        .withRunAsGroup(999L)
                        .withFsGroup(999L)
                        .build(),
                Map.of());
    }
}
