package dev.sluice.operator.reconcile;

import dev.sluice.operator.crd.ConditionedStatus;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.time.Clock;
import java.time.Duration;

/**
 * The {@code Available} condition of the kinds that run as a Deployment (Accounting, RestApi,
 * LoginSet), one way for all: what is missing is a False condition with a Warning event the
 * first time; otherwise the Deployment's ready pods decide. Not ready is looked at again soon,
 * ready once a minute.
 */
final class Availability {
    static final String TYPE = "Available";

    private Availability() {}

    /** Available=False for {@code reason}; a Warning event when the reason is new. */
    static <R extends HasMetadata> UpdateControl<R> missing(
            KubernetesClient client, Clock clock, R resource, ConditionedStatus status, String reason, String message) {
        boolean news =
                status.conditions.stream().noneMatch(c -> c.getType().equals(TYPE) && reason.equals(c.getReason()));
        Conditions.set(
                status.conditions,
                TYPE,
                false,
                reason,
                message,
                resource.getMetadata().getGeneration(),
                clock.instant());
        if (news) {
            Events.record(client, clock, resource, "Warning", reason, message);
        }
        return UpdateControl.patchStatus(resource).rescheduleAfter(Duration.ofSeconds(5));
    }

    /** Available when {@code ready} pods of {@code want} are, with reason and message to say which. */
    static <R extends HasMetadata> UpdateControl<R> ofPods(
            Clock clock,
            R resource,
            ConditionedStatus status,
            int ready,
            int want,
            String readyReason,
            String notReadyReason,
            String message) {
        boolean available = ready >= want;
        Conditions.set(
                status.conditions,
                TYPE,
                available,
                available ? readyReason : notReadyReason,
                message,
                resource.getMetadata().getGeneration(),
                clock.instant());
        return UpdateControl.patchStatus(resource)
                .rescheduleAfter(available ? Duration.ofSeconds(60) : Duration.ofSeconds(5));
    }

    /** Available when all {@code want} replicas of a Deployment are ready ({@code AllReplicasReady}). */
    static <R extends HasMetadata> UpdateControl<R> ofReplicas(
            Clock clock, R resource, ConditionedStatus status, int ready, int want) {
        return ofPods(
                clock,
                resource,
                status,
                ready,
                want,
                "AllReplicasReady",
                "ReplicasNotReady",
                ready + "/" + want + " pods ready");
    }
}
