package dev.sluice.cli.testing;

import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.GetJobsResponse;
import dev.sluice.protocol.v1.GetNodesResponse;
import dev.sluice.protocol.v1.GetPartitionsResponse;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.NodeInfo;
import dev.sluice.protocol.v1.PartitionInfo;
import dev.sluice.protocol.v1.PingResponse;
import java.util.List;

/** What a {@link FakeController} answers to the read requests, for the handlers tests give it. */
public final class Answers {
    private Answers() {}

    public static ClientResponse jobs(List<JobInfo> jobs) {
        return ClientResponse.newBuilder()
                .setGetJobs(GetJobsResponse.newBuilder().addAllJobs(jobs))
                .build();
    }

    public static ClientResponse nodes(List<NodeInfo> nodes) {
        return ClientResponse.newBuilder()
                .setGetNodes(GetNodesResponse.newBuilder().addAllNodes(nodes))
                .build();
    }

    public static ClientResponse partitions(List<PartitionInfo> partitions) {
        return ClientResponse.newBuilder()
                .setGetPartitions(GetPartitionsResponse.newBuilder().addAllPartitions(partitions))
                .build();
    }

    /** {@link Fixtures#gpuPartition()}, the only partition. */
    public static ClientResponse gpuPartition() {
        return partitions(List.of(Fixtures.gpuPartition().build()));
    }

    /** A controller that is up and names no cluster. */
    public static ClientResponse ping() {
        return ClientResponse.newBuilder()
                .setPing(PingResponse.getDefaultInstance())
                .build();
    }

    public static ClientResponse ping(String clusterName) {
        return ClientResponse.newBuilder()
                .setPing(PingResponse.newBuilder().setClusterName(clusterName))
                .build();
    }

    /** The cluster {@link Fixtures} describes, to a command that only reads it; any other request fails the test. */
    public static ClientResponse fixtureCluster(ClientRequest req) {
        return switch (req.getBodyCase()) {
            case GET_JOBS -> jobs(Fixtures.jobs());
            case GET_NODES -> nodes(Fixtures.nodes());
            case GET_PARTITIONS -> gpuPartition();
            default -> throw new AssertionError("unexpected " + req.getBodyCase());
        };
    }
}
