package dev.sluice.operator.crd;

/**
 * A partition of this NodeSet's nodes alone (Slinky's {@code NodeSetPartition}): named after the
 * NodeSet, {@code config} appended to its {@code PartitionName} line.
 */
public class NodeSetPartition {
    public boolean enabled;
    public String config;
}
