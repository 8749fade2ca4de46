package dev.sluice.operator.crd;

import io.fabric8.kubernetes.model.annotation.LabelSelector;
import io.fabric8.kubernetes.model.annotation.StatusReplicas;

/** The observed state of a {@link NodeSet}; Slinky's {@code NodeSetStatus} field names. */
public class NodeSetStatus extends ConditionedStatus {
    /** Pods that exist and are not being removed. */
    @StatusReplicas
    public Integer replicas;

    public Integer readyReplicas;
    public Integer availableReplicas;
    public Integer unavailableReplicas;
    /** Nodes as the controller sees them. */
    public Integer slurmIdle;

    public Integer slurmAllocated;
    public Integer slurmDown;
    public Integer slurmDrain;
    /** The label selector of the pods, for the scale subresource. */
    @LabelSelector
    public String selector;
}
