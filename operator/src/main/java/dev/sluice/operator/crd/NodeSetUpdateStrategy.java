package dev.sluice.operator.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.IntOrString;

/** Slinky's {@code NodeSetUpdateStrategy}: {@code RollingUpdate} or {@code OnDelete}. */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public class NodeSetUpdateStrategy {
    public String type;
    public RollingUpdate rollingUpdate;

    /** How many nodes may be out of service at once while pods are replaced. */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public static class RollingUpdate {
        public IntOrString maxUnavailable;
    }
}
