package dev.sluice.operator.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.model.annotation.SpecReplicas;

/** What a {@link NodeSet} should be; Slinky's {@code NodeSetSpec} field names. */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public class NodeSetSpec {
    /** The {@link Controller} these nodes register with. */
    @Required
    public LocalObjectReference controllerRef;

    @SpecReplicas
    @Min(0)
    public Integer replicas;

    public ContainerWrapper slurmd;
    public PodTemplate template;
    /** Extra node parameters for {@code -Z --conf}, e.g. {@code Feature=a100 Weight=10}. */
    public String extraConf;

    public NodeSetPartition partition;
    public NodeSetUpdateStrategy updateStrategy;
    public Integer minReadySeconds;

    /**
     * A Sluice addition: how long scale-in waits for the jobs on a drained node before deleting
     * its pod anyway (default 3600). The node is drained first, so no new job lands there.
     */
    @Min(0)
    public Long scaleInGracePeriodSeconds;
}
