package dev.sluice.operator.reconcile;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Kubernetes events about a custom resource ({@code kubectl describe} shows them). */
final class Events {
    private static final Logger log = LoggerFactory.getLogger(Events.class);

    private Events() {}

    static void record(
            KubernetesClient client, Clock clock, HasMetadata about, String type, String reason, String message) {
        log.info(
                "{} {}/{}: {} {}",
                about.getKind(),
                about.getMetadata().getNamespace(),
                about.getMetadata().getName(),
                reason,
                message);
        String now = clock.instant().toString();
        try {
            client.v1()
                    .events()
                    .inNamespace(about.getMetadata().getNamespace())
                    .resource(new EventBuilder()
                            .withNewMetadata()
                            .withName(about.getMetadata().getName() + "." + UUID.randomUUID())
                            .withNamespace(about.getMetadata().getNamespace())
                            .endMetadata()
                            .withNewInvolvedObject()
                            .withApiVersion(about.getApiVersion())
                            .withKind(about.getKind())
                            .withName(about.getMetadata().getName())
                            .withNamespace(about.getMetadata().getNamespace())
                            .withUid(about.getMetadata().getUid())
                            .endInvolvedObject()
                            .withType(type)
                            .withReason(reason)
                            .withMessage(message)
                            .withFirstTimestamp(now)
                            .withLastTimestamp(now)
                            .withCount(1)
                            .withNewSource()
                            .withComponent("sluice-operator")
                            .endSource()
                            .build())
                    .create();
        } catch (KubernetesClientException e) {
            // An event is informative: never fail a reconcile over one.
            log.warn("could not record event {}: {}", reason, e.getMessage());
        }
    }
}
