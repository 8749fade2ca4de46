package dev.sluice.operator.crd;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/** Accounting: {@code sluice-dbd} with its MariaDB given by reference. */
@Group(Controller.GROUP)
@Version(Controller.VERSION)
public class Accounting extends CustomResource<AccountingSpec, AccountingStatus> implements Namespaced {
    @Override
    protected AccountingStatus initStatus() {
        return new AccountingStatus();
    }
}
