package dev.sluice.operator.crd;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A Sluice controller ({@code sluice-ctld}): a one-pod StatefulSet whose StateSaveLocation lives
 * on a persistent volume, its {@code slurm.conf} rendered from this resource into a ConfigMap and
 * served configless to the node daemons, and a Service the nodes and commands reach it through.
 */
@Group(Controller.GROUP)
@Version(Controller.VERSION)
@ShortNames("ctld")
public class Controller extends CustomResource<ControllerSpec, ControllerStatus> implements Namespaced {
    public static final String GROUP = "sluice.dev";
    public static final String VERSION = "v1alpha1";

    @Override
    protected ControllerStatus initStatus() {
        return new ControllerStatus();
    }
}
