package dev.sluice.operator.crd;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/** A JWT for a user (or the operator itself) kept in a Secret, signed with the cluster's HS256 key. */
@Group(Controller.GROUP)
@Version(Controller.VERSION)
public class Token extends CustomResource<TokenSpec, TokenStatus> implements Namespaced {
    @Override
    protected TokenStatus initStatus() {
        return new TokenStatus();
    }
}
