package dev.sluice.ctld;

import dev.sluice.common.gres.GresSpec;
import dev.sluice.ctld.control.ControlResult;
import dev.sluice.ctld.gres.GresInventory;
import dev.sluice.ctld.sched.SchedulePlan;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.DaemonReport;
import dev.sluice.ctld.state.DynamicMembership;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.Node;
import dev.sluice.ctld.state.NodeAdmin;
import dev.sluice.ctld.state.NodeEndpoint;
import dev.sluice.ctld.state.NodeEquipment;
import dev.sluice.ctld.state.NodeFacts;
import dev.sluice.ctld.state.NodeHardware;
import dev.sluice.ctld.state.NodeView;
import dev.sluice.ctld.state.Partition;
import dev.sluice.ctld.state.StateRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A cluster state for tests, built as a controller builds its own and driven as the loop drives
 * it: {@code aCluster().nodes(2).cpus(4).build()} is nodes {@code n1..n2}, registered and
 * answering, in one default partition {@code p}; {@link #replay} journals a record with the next
 * sequence number and {@link #apply} applies a handler's decision ({@link ControlHarness}).
 * {@link Builder#configured} is the same cluster before any node registered: the state a
 * controller builds from slurm.conf alone; {@link #emptyCopy} is one to restore a snapshot into.
 */
public final class ClusterFixture {
    private final ClusterState state;
    private final ControlHarness harness;
    private final List<Node> nodes;
    private final List<Partition> partitions;
    private final List<DynamicMembership> memberships;

    private final int firstJobId;

    private ClusterFixture(
            List<Node> nodes, List<Partition> partitions, List<DynamicMembership> memberships, int firstJobId) {
        this.nodes = List.copyOf(nodes);
        this.partitions = List.copyOf(partitions);
        this.memberships = List.copyOf(memberships);
        this.firstJobId = firstJobId;
        this.state = emptyCopy();
        this.harness = new ControlHarness();
    }

    public static Builder aCluster() {
        return new Builder();
    }

    /** A node as slurm.conf configures it: 4 CPUs, 1000 MB, no GRES, at 127.0.0.1. */
    public static NodeBuilder aNode(String name) {
        return new NodeBuilder(name);
    }

    /** Nodes {@code n1..n<nodes>} of {@code cpus} CPUs in partition {@code p}, idle: registered 100 s before {@code now}, heard at it. */
    public static ClusterFixture idle(int nodes, int cpus, long now) {
        return aCluster().nodes(nodes).cpus(cpus).at(now - 100, now).build();
    }

    public ClusterState state() {
        return state;
    }

    /** The nodes as configured (slurm.conf), for a state built again from the same file. */
    public List<Node> nodes() {
        return nodes;
    }

    public List<Partition> partitions() {
        return partitions;
    }

    /** A state built again from the same configuration, nothing journaled: to restore a snapshot into. */
    public ClusterState emptyCopy() {
        return new ClusterState(nodes, partitions, memberships, firstJobId);
    }

    /** The last record's sequence number. */
    public long sequence() {
        return harness.sequence();
    }

    /** Journals one record, as the loop's replay after the append. */
    public void replay(StateRecord record) {
        harness.replay(state, record);
    }

    /** A decision the loop accepted: its records replayed, its soft changes applied; its answer. */
    public <T> T apply(ControlResult<T> result) {
        return harness.apply(state, result);
    }

    /** Journals a submission under the next job id; that id. */
    public int submit(JobRequest request, String partition, long limitMinutes, long time) {
        int id = state.nextJobId();
        replay(new StateRecord.JobSubmitted(id, request, partition, limitMinutes, time));
        return id;
    }

    /** Journals the starts a scheduling pass planned, as the controller does, at {@code now}. */
    public void start(SchedulePlan plan, long now) {
        for (SchedulePlan.Start s : plan.starts()) {
            replay(new StateRecord.JobStarted(s.jobId(), s.allocation(), s.partition(), s.timeLimitMinutes(), now));
        }
    }

    /** A node as the current image shows it. */
    public NodeView node(String name) {
        return state.image().node(name).orElseThrow();
    }

    public static final class Builder {
        private List<String> names = List.of("n1");
        private List<Node> configuredNodes;
        private int cpus = 4;
        private long memoryMb = 1000;
        private GresInventory gres = GresInventory.NONE;
        private List<DynamicMembership> memberships = List.of();
        private int firstJobId = 1;
        private long registeredAt;
        private long heardAt;
        private Function<List<String>, List<Partition>> partitions = names -> List.of(Builders.aPartition("p", names));

        private Builder() {}

        /** Nodes {@code n1..n<count>}. */
        public Builder nodes(int count) {
            List<String> numbered = new ArrayList<>();
            for (int i = 1; i <= count; i++) {
                numbered.add("n" + i);
            }
            return names(numbered);
        }

        /** Nodes of these names, in this order. */
        public Builder names(List<String> value) {
            names = List.copyOf(value);
            return this;
        }

        /** These nodes, in this order, instead of numbered ones of {@link #cpus} and {@link #memoryMb}. */
        public Builder nodes(NodeBuilder... value) {
            configuredNodes = new ArrayList<>();
            for (NodeBuilder node : value) {
                configuredNodes.add(node.build());
            }
            names = configuredNodes.stream().map(Node::name).toList();
            return this;
        }

        /** CPUs of each node ({@link NodeHardware#ofCpus}). */
        public Builder cpus(int value) {
            cpus = value;
            return this;
        }

        public Builder memoryMb(long value) {
            memoryMb = value;
            return this;
        }

        /** The GRES of each numbered node. */
        public Builder gres(GresInventory value) {
            gres = value;
            return this;
        }

        /** slurm.conf {@code FirstJobId=}. */
        public Builder firstJobId(int value) {
            firstJobId = value;
            return this;
        }

        /** The partitions over the nodes' names; one default partition {@code p} unless given. */
        public Builder partitions(Function<List<String>, List<Partition>> value) {
            partitions = value;
            return this;
        }

        /** Partitions whose nodes are chosen by feature (slurm.conf {@code Nodes=ALL} or a feature). */
        public Builder memberships(DynamicMembership... value) {
            memberships = List.of(value);
            return this;
        }

        /** When the nodes registered (their last busy time until a job leaves them) and were last heard. */
        public Builder at(long registered, long heard) {
            registeredAt = registered;
            heardAt = heard;
            return this;
        }

        /** Every node registered at {@link #at}'s first time and heard at its second. */
        public ClusterFixture build() {
            ClusterFixture cluster = unregistered();
            for (Node node : cluster.nodes) {
                cluster.replay(new StateRecord.NodeRegistered(
                        node.name(),
                        new NodeEndpoint(node.name(), "127.0.0.1", 1),
                        new NodeEquipment(node.hardware(), List.of(), ""),
                        new DaemonReport(1, "v", NodeFacts.NONE),
                        false,
                        registeredAt));
                cluster.state.heard(node.name(), heardAt);
            }
            return cluster;
        }

        /** The state as slurm.conf alone builds it: no node has registered, nothing journaled. */
        public ClusterState configured() {
            return unregistered().state;
        }

        private ClusterFixture unregistered() {
            List<Node> nodes = configuredNodes;
            if (nodes == null) {
                nodes = new ArrayList<>();
                for (String name : names) {
                    nodes.add(aNode(name).cpus(cpus).memory(memoryMb).gres(gres).build());
                }
            }
            return new ClusterFixture(nodes, partitions.apply(names), memberships, firstJobId);
        }
    }

    /** A configured node; only what a test sets differs from the defaults of {@link #aNode}. */
    public static final class NodeBuilder {
        private final String name;
        private String addr = "127.0.0.1";
        private int port;
        private int cpus = 4;
        private long memoryMb = 1000;
        private NodeHardware hardware;
        private GresInventory gres = GresInventory.NONE;
        private boolean future;

        private NodeBuilder(String name) {
            this.name = name;
        }

        public NodeBuilder cpus(int value) {
            cpus = value;
            return this;
        }

        public NodeBuilder memory(long mb) {
            memoryMb = mb;
            return this;
        }

        /** The whole layout (sockets, cores, threads), in place of {@link #cpus} and {@link #memory}. */
        public NodeBuilder hardware(NodeHardware value) {
            hardware = value;
            return this;
        }

        public NodeBuilder gres(GresInventory value) {
            gres = value;
            return this;
        }

        /** Slurm's node {@code Gres=} value, e.g. {@code gpu:3}. */
        public NodeBuilder gres(String value) {
            return gres(GresInventory.of(GresSpec.parseNodeList(value), List.of()));
        }

        /** slurm.conf {@code NodeAddr=} and {@code Port=}. */
        public NodeBuilder at(String address, int slurmdPort) {
            addr = address;
            port = slurmdPort;
            return this;
        }

        /** {@code State=FUTURE}: configured, not yet part of the cluster. */
        public NodeBuilder future() {
            future = true;
            return this;
        }

        public Node build() {
            NodeHardware hw = hardware != null ? hardware : NodeHardware.ofCpus(cpus, memoryMb);
            Node node = Node.configured(name, new NodeEndpoint(name, addr, port), hw, List.of(), gres, 1);
            return future ? node.withAdmin(NodeAdmin.FUTURE) : node;
        }
    }
}
