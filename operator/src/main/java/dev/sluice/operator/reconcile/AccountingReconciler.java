package dev.sluice.operator.reconcile;

import dev.sluice.operator.crd.Accounting;
import dev.sluice.operator.crd.AccountingStatus;
import dev.sluice.operator.render.AccountingObjects;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Base64;

/**
 * Runs an {@link Accounting}: {@code sluice-dbd} storing to the MariaDB its
 * {@code storageConfig} names, the password read from the Secret {@code passwordKeyRef} names
 * and written, with the rest of slurmdbd.conf, into a Secret the Accounting owns. A changed
 * configuration rolls the Deployment (its pod template carries the file's hash). Status
 * condition {@code Available}: the configuration is complete and the daemon's pod is ready.
 */
@ControllerConfiguration(name = "accounting")
public final class AccountingReconciler implements Reconciler<Accounting> {
    private final Clock clock;
    private final String defaultImage;

    public AccountingReconciler(Clock clock, String defaultImage) {
        this.clock = clock;
        this.defaultImage = defaultImage;
    }

    @Override
    public UpdateControl<Accounting> reconcile(Accounting a, Context<Accounting> context) {
        KubernetesClient client = context.getClient();
        String ns = a.getMetadata().getNamespace();
        AccountingStatus status = a.getStatus() != null ? a.getStatus() : new AccountingStatus();
        a.setStatus(status);
        Long generation = a.getMetadata().getGeneration();
        status.observedGeneration = generation;
        var storage = a.getSpec().storageConfig;
        if (storage == null || storage.host == null || storage.host.isBlank()) {
            // No embedded database here: a pod's disk would lose the accounting at each restart.
            return Availability.missing(
                    client, clock, a, status, "StorageNotConfigured", "storageConfig.host names no MariaDB server");
        }
        String password = null;
        if (storage.passwordKeyRef != null) {
            Secret s = client.secrets()
                    .inNamespace(ns)
                    .withName(storage.passwordKeyRef.getName())
                    .get();
            String encoded =
                    s == null || s.getData() == null ? null : s.getData().get(storage.passwordKeyRef.getKey());
            if (encoded == null) {
                return Availability.missing(
                        client,
                        clock,
                        a,
                        status,
                        "PasswordNotFound",
                        "Secret " + storage.passwordKeyRef.getName() + " has no key "
                                + storage.passwordKeyRef.getKey());
            }
            password = new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8).strip();
        }
        Secret config = AccountingObjects.secret(a, password);
        boolean changed = Children.apply(client, a, config);
        Children.apply(client, a, AccountingObjects.service(a));
        Deployment d = AccountingObjects.deployment(a, defaultImage, Hashes.of(config.getData()));
        Children.apply(client, a, d);
        if (changed) {
            Events.record(
                    client,
                    clock,
                    a,
                    "Normal",
                    "ConfigRendered",
                    "slurmdbd.conf rendered into Secret " + config.getMetadata().getName() + " for MariaDB at "
                            + storage.host);
        }
        int ready = Children.readyReplicas(client, d);
        return Availability.ofPods(
                clock,
                a,
                status,
                ready,
                1,
                "PodReady",
                "PodNotReady",
                ready >= 1 ? "sluice-dbd is ready" : "sluice-dbd's pod is not ready");
    }
}
