package dev.sluice.operator.crd;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/** Login pods running {@code sluice-agent} with the user commands, users from an sssd-style Secret. */
@Group(Controller.GROUP)
@Version(Controller.VERSION)
public class LoginSet extends CustomResource<LoginSetSpec, LoginSetStatus> implements Namespaced {
    @Override
    protected LoginSetStatus initStatus() {
        return new LoginSetStatus();
    }
}
