package dev.sluice.operator.reconcile;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import java.util.List;

/** Owner references: the custom resource controls each child, and its deletion removes them. */
final class Owners {
    private Owners() {}

    static <T extends HasMetadata> T ownedBy(T child, HasMetadata owner) {
        child.getMetadata()
                .setOwnerReferences(List.of(new OwnerReferenceBuilder()
                        .withApiVersion(owner.getApiVersion())
                        .withKind(owner.getKind())
                        .withName(owner.getMetadata().getName())
                        .withUid(owner.getMetadata().getUid())
                        .withController(true)
                        .withBlockOwnerDeletion(true)
                        .build()));
        return child;
    }
}
