package dev.sluice.operator.cluster;

import dev.sluice.cli.Caller;
import dev.sluice.cli.client.ClientAuth;
import dev.sluice.cli.client.ClusterAccess;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.cli.client.ControllerLocator;
import dev.sluice.cli.view.NodeStates;
import dev.sluice.common.hostlist.HostList;
import dev.sluice.common.scalein.ScaleInRanking;
import dev.sluice.common.scalein.ScaleInRanking.Candidate;
import dev.sluice.common.scalein.ScaleInRanking.NodeSlot;
import dev.sluice.common.scalein.ScaleInRanking.RunningJob;
import dev.sluice.common.tres.Tres;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.DeleteNodeRequest;
import dev.sluice.protocol.v1.GetJobsRequest;
import dev.sluice.protocol.v1.GetNodesRequest;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.protocol.v1.NodeInfo;
import dev.sluice.protocol.v1.NodeStateRequest;
import dev.sluice.protocol.v1.UpdateNodeRequest;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@link SluiceCluster} over the commands' controller client: the same requests {@code scontrol}
 * sends, as an administrator, since draining and deleting nodes is an administrator's act:
 * with the operator's own JWT for SlurmUser ({@link #withToken}), or else signed with the
 * cluster key as {@code root}.
 */
public final class ClientSluiceCluster implements SluiceCluster {
    private final ControllerClient client;
    private final Clock clock;

    public ClientSluiceCluster(ClusterAccess access, Clock clock) {
        this(access, new Caller(0, 0, "root", "sluice-operator"), Map.of(), clock);
    }

    private ClientSluiceCluster(ClusterAccess access, Caller caller, Map<String, String> env, Clock clock) {
        ClientAuth auth = ClientAuth.forCaller(access, env, caller, Clock.systemUTC(), true);
        this.client = new ControllerClient(ControllerLocator.addresses(access.conf()), caller, auth);
        this.clock = clock;
    }

    /**
     * With a {@code SLURM_JWT} instead of the cluster key ({@code access} has none beside its
     * slurm.conf): the controller knows the operator as the token's user, whatever the request
     * says, so the identity written here is only a placeholder.
     */
    public static ClientSluiceCluster withToken(ClusterAccess access, String token, Clock clock) {
        return new ClientSluiceCluster(
                access,
                new Caller(65534, 65534, "sluice-operator", "sluice-operator"),
                Map.of("SLURM_JWT", token),
                clock);
    }

    @Override
    public List<Node> nodes() throws ClusterUnavailableException {
        List<Node> out = new ArrayList<>();
        for (NodeInfo n : nodeInfos()) {
            out.add(new Node(n.getName(), NodeStates.status(n), n.getReason()));
        }
        return out;
    }

    private List<NodeInfo> nodeInfos() throws ClusterUnavailableException {
        return call(ClientRequest.newBuilder().setGetNodes(GetNodesRequest.getDefaultInstance()))
                .getGetNodes()
                .getNodesList();
    }

    @Override
    public List<Candidate> scaleInRanking(List<String> nodes) throws ClusterUnavailableException {
        Set<String> wanted = new HashSet<>(nodes);
        List<NodeSlot> slots = new ArrayList<>();
        for (NodeInfo n : nodeInfos()) {
            if (wanted.contains(n.getName())) {
                slots.add(new NodeSlot(n.getName(), NodeStates.unavailable(n)));
            }
        }
        List<RunningJob> running = new ArrayList<>();
        List<JobInfo> jobs = call(ClientRequest.newBuilder().setGetJobs(GetJobsRequest.getDefaultInstance()))
                .getGetJobs()
                .getJobsList();
        for (JobInfo j : jobs) {
            // As scontrol show scalein: a suspended job keeps its nodes.
            if ((j.getState() == JobState.RUNNING || j.getState() == JobState.SUSPENDED)
                    && !j.getNodeList().isEmpty()) {
                running.add(new RunningJob(
                        HostList.expand(j.getNodeList()),
                        ScaleInRanking.limitEnd(j.getStartTime(), Integer.toUnsignedLong(j.getTimeLimitMinutes()))));
            }
        }
        return ScaleInRanking.rank(slots, running, clock.instant().getEpochSecond());
    }

    @Override
    public List<PartitionLoad> partitionLoads() throws ClusterUnavailableException {
        List<String> partitions = call(ClientRequest.newBuilder()
                        .setGetPartitions(dev.sluice.protocol.v1.GetPartitionsRequest.getDefaultInstance()))
                .getGetPartitions()
                .getPartitionsList()
                .stream()
                .map(dev.sluice.protocol.v1.PartitionInfo::getName)
                .toList();
        List<PartitionLoad.Pending> pending = new ArrayList<>();
        for (JobInfo j : call(ClientRequest.newBuilder().setGetJobs(GetJobsRequest.getDefaultInstance()))
                .getGetJobs()
                .getJobsList()) {
            if (j.getState() == JobState.PENDING) {
                Tres req = Tres.parse(j.getReqTres());
                long cpus = Math.max(req.get("cpu"), Integer.toUnsignedLong(j.getNumCpus()));
                pending.add(new PartitionLoad.Pending(List.of(j.getPartition().split(",")), cpus, req.get("gres/gpu")));
            }
        }
        List<PartitionLoad.NodeSlot> nodes = new ArrayList<>();
        for (NodeInfo n : nodeInfos()) {
            Node view = new Node(n.getName(), NodeStates.status(n), n.getReason());
            nodes.add(new PartitionLoad.NodeSlot(n.getPartitionsList(), view.idle()));
        }
        return PartitionLoad.compute(partitions, pending, nodes);
    }

    @Override
    public void drain(String node, String reason) throws ClusterUnavailableException {
        call(ClientRequest.newBuilder()
                .setUpdateNode(UpdateNodeRequest.newBuilder()
                        .setNodeNames(node)
                        .setState(NodeStateRequest.NODE_STATE_REQUEST_DRAIN)
                        .setReason(reason)));
    }

    @Override
    public void resume(String node) throws ClusterUnavailableException {
        call(ClientRequest.newBuilder()
                .setUpdateNode(UpdateNodeRequest.newBuilder()
                        .setNodeNames(node)
                        .setState(NodeStateRequest.NODE_STATE_REQUEST_RESUME)));
    }

    @Override
    public void delete(String node) throws ClusterUnavailableException {
        call(ClientRequest.newBuilder()
                .setDeleteNode(DeleteNodeRequest.newBuilder().setNodeNames(node)));
    }

    private dev.sluice.protocol.v1.ClientResponse call(ClientRequest.Builder request)
            throws ClusterUnavailableException {
        try {
            return client.call(request);
        } catch (ControllerException e) {
            throw new ClusterUnavailableException(e.getMessage(), e);
        }
    }
}
