package dev.sluice.operator.reconcile;

import dev.sluice.operator.crd.ConditionedStatus;
import dev.sluice.operator.crd.Controller;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.time.Clock;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * How a reconcile of a kind that serves a Controller (LoginSet, RestApi) begins, one way for
 * all: its status (made if it has none) observes the resource's generation, and the Controller
 * {@code controllerRef} names is looked up; without it the resource is not Available
 * ({@code ControllerNotFound}) and {@link #refused} is the answer, else {@link #then}'s.
 *
 * @param controller the Controller named; null when it does not exist
 * @param refused the answer when it does not exist; null otherwise
 */
record ControllerBound<R extends CustomResource<?, S>, S extends ConditionedStatus>(
        S status, Controller controller, UpdateControl<R> refused) {

    static <R extends CustomResource<?, S>, S extends ConditionedStatus> ControllerBound<R, S> of(
            KubernetesClient client, Clock clock, R resource, Supplier<S> fresh, LocalObjectReference controllerRef) {
        S status = resource.getStatus() != null ? resource.getStatus() : fresh.get();
        resource.setStatus(status);
        status.observedGeneration = resource.getMetadata().getGeneration();
        String name = controllerRef.getName();
        Controller c = client.resources(Controller.class)
                .inNamespace(resource.getMetadata().getNamespace())
                .withName(name)
                .get();
        if (c == null) {
            return new ControllerBound<>(
                    status,
                    null,
                    Availability.missing(
                            client,
                            clock,
                            resource,
                            status,
                            "ControllerNotFound",
                            "Controller " + name + " does not exist"));
        }
        return new ControllerBound<>(status, c, null);
    }

    /** The rest of the reconcile, with the status and the Controller; the refusal when there is none. */
    UpdateControl<R> then(BiFunction<S, Controller, UpdateControl<R>> rest) {
        return refused != null ? refused : rest.apply(status, controller);
    }
}
