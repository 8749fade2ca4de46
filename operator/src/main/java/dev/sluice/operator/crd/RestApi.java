package dev.sluice.operator.crd;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/** The REST daemon {@code sluice-restd} (docs/rest.md) in front of a {@link Controller}. */
@Group(Controller.GROUP)
@Version(Controller.VERSION)
public class RestApi extends CustomResource<RestApiSpec, RestApiStatus> implements Namespaced {
    @Override
    protected RestApiStatus initStatus() {
        return new RestApiStatus();
    }
}
