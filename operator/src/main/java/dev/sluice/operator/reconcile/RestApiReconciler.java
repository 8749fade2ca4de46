package dev.sluice.operator.reconcile;

import dev.sluice.operator.crd.Controller;
import dev.sluice.operator.crd.RestApi;
import dev.sluice.operator.crd.RestApiStatus;
import dev.sluice.operator.render.RestApiObjects;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.time.Clock;

/**
 * Runs a {@link RestApi}: {@code sluice-restd} replicas in front of the Controller
 * {@code controllerRef} names, with that Controller's slurm.conf and JWT key, behind a Service.
 * A Controller without {@code jwtHs256KeyRef} gets no REST daemon: sluice-restd only takes
 * {@code auth/jwt} tokens, so it would refuse every request. Status condition {@code Available}.
 */
@ControllerConfiguration(name = "restapi")
public final class RestApiReconciler implements Reconciler<RestApi> {
    private final Clock clock;
    private final String defaultImage;

    public RestApiReconciler(Clock clock, String defaultImage) {
        this.clock = clock;
        this.defaultImage = defaultImage;
    }

    @Override
    public UpdateControl<RestApi> reconcile(RestApi api, Context<RestApi> context) {
        KubernetesClient client = context.getClient();
        return ControllerBound.of(client, clock, api, RestApiStatus::new, api.getSpec().controllerRef)
                .then((status, c) -> reconcile(client, api, status, c));
    }

    private UpdateControl<RestApi> reconcile(KubernetesClient client, RestApi api, RestApiStatus status, Controller c) {
        String controllerName = c.getMetadata().getName();
        if (c.getSpec().jwtHs256KeyRef == null) {
            return Availability.missing(
                    client,
                    clock,
                    api,
                    status,
                    "NoJwtKey",
                    "Controller " + controllerName
                            + " has no jwtHs256KeyRef: sluice-restd accepts only auth/jwt tokens");
        }
        Deployment d = RestApiObjects.deployment(api, c, defaultImage);
        if (Children.apply(client, api, d)) {
            Events.record(
                    client,
                    clock,
                    api,
                    "Normal",
                    "DeploymentApplied",
                    "sluice-restd for Controller " + controllerName + " on port " + RestApiObjects.port(api));
        }
        Children.apply(client, api, RestApiObjects.service(api, c));
        int ready = Children.readyReplicas(client, d);
        return Availability.ofReplicas(clock, api, status, ready, d.getSpec().getReplicas());
    }
}
