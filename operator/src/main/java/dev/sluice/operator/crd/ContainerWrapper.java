package dev.sluice.operator.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.util.List;

/**
 * The part of a container a user sets for a Sluice daemon (Slinky's {@code ContainerWrapper}
 * wraps a whole {@code corev1.Container}; the operator owns the command, ports and mounts).
 * {@code resources.limits} of a NodeSet's {@code slurmd} also say what the node offers Sluice:
 * {@code cpu}, {@code memory} and {@code nvidia.com/gpu}.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public class ContainerWrapper {
    public String image;
    public String imagePullPolicy;
    /** Extra arguments after the operator's own. */
    public List<String> args;

    public List<EnvVar> env;
    public ResourceRequirements resources;
}
