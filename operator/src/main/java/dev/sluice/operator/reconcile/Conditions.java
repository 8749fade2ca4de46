package dev.sluice.operator.reconcile;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.time.Instant;
import java.util.List;

/** Kubernetes conditions: set one by type, keeping its transition time while its status holds. */
final class Conditions {
    private Conditions() {}

    static void set(
            List<Condition> conditions,
            String type,
            boolean status,
            String reason,
            String message,
            Long generation,
            Instant now) {
        String value = status ? "True" : "False";
        Condition old = conditions.stream()
                .filter(c -> c.getType().equals(type))
                .findFirst()
                .orElse(null);
        String since = old != null && value.equals(old.getStatus()) ? old.getLastTransitionTime() : now.toString();
        conditions.removeIf(c -> c.getType().equals(type));
        conditions.add(new ConditionBuilder()
                .withType(type)
                .withStatus(value)
                .withReason(reason)
                .withMessage(message)
                .withObservedGeneration(generation)
                .withLastTransitionTime(since)
                .build());
    }

    static boolean isTrue(List<Condition> conditions, String type) {
        return conditions.stream().anyMatch(c -> c.getType().equals(type) && "True".equals(c.getStatus()));
    }
}
