package dev.sluice.cli.command.sinfo;

import dev.sluice.protocol.v1.NodeInfo;
import dev.sluice.protocol.v1.PartitionInfo;

/**
 * One node as seen from one partition (a node in two partitions makes two records), or a
 * partition none of whose nodes passed the filters ({@code node} null): sinfo still prints such
 * a partition, with 0 nodes and state {@code n/a}.
 *
 * @param partitionIndex the partition's position in the configuration, for sinfo's {@code #P}
 */
record NodeRecord(PartitionInfo partition, int partitionIndex, NodeInfo node) {
    boolean empty() {
        return node == null;
    }
}
