package dev.sluice.operator.reconcile;

import dev.sluice.operator.crd.Controller;
import dev.sluice.operator.crd.LoginSet;
import dev.sluice.operator.crd.LoginSetStatus;
import dev.sluice.operator.render.LoginObjects;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.time.Clock;

/**
 * Runs a {@link LoginSet}: login pods with {@code sluice-agent} and the commands for the
 * Controller {@code controllerRef} names, users from the {@code sssdConfRef} Secret. The Secret
 * must exist before the pods are made (a pod mounting a missing Secret never starts); the
 * operator reads it only to see that it is there and has the key. Status condition
 * {@code Available}.
 */
@ControllerConfiguration(name = "loginset")
public final class LoginSetReconciler implements Reconciler<LoginSet> {
    private final Clock clock;
    private final String defaultImage;

    public LoginSetReconciler(Clock clock, String defaultImage) {
        this.clock = clock;
        this.defaultImage = defaultImage;
    }

    @Override
    public UpdateControl<LoginSet> reconcile(LoginSet set, Context<LoginSet> context) {
        KubernetesClient client = context.getClient();
        return ControllerBound.of(client, clock, set, LoginSetStatus::new, set.getSpec().controllerRef)
                .then((status, c) -> reconcile(client, set, status, c));
    }

    private UpdateControl<LoginSet> reconcile(
            KubernetesClient client, LoginSet set, LoginSetStatus status, Controller c) {
        String ns = set.getMetadata().getNamespace();
        String controllerName = c.getMetadata().getName();
        var sssd = set.getSpec().sssdConfRef;
        if (sssd != null) {
            Secret s = client.secrets().inNamespace(ns).withName(sssd.getName()).get();
            if (s == null || s.getData() == null || !s.getData().containsKey(sssd.getKey())) {
                return Availability.missing(
                        client,
                        clock,
                        set,
                        status,
                        "UserConfigNotFound",
                        "Secret " + sssd.getName() + " has no key " + sssd.getKey());
            }
        }
        Deployment d = LoginObjects.deployment(set, c, defaultImage);
        if (Children.apply(client, set, d)) {
            Events.record(
                    client,
                    clock,
                    set,
                    "Normal",
                    "DeploymentApplied",
                    d.getSpec().getReplicas() + " login pod(s) for Controller " + controllerName);
        }
        // The scale subresource reads these: ready pods, and the labels that select them.
        int ready = Children.readyReplicas(client, d);
        status.replicas = ready;
        status.selector = d.getSpec().getSelector().getMatchLabels().entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(java.util.stream.Collectors.joining(","));
        return Availability.ofReplicas(clock, set, status, ready, d.getSpec().getReplicas());
    }
}
