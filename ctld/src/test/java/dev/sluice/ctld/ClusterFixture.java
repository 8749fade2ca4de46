package dev.sluice.ctld;

import dev.sluice.ctld.control.ControlResult;
import dev.sluice.ctld.gres.GresInventory;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.Node;
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
 */
public final class ClusterFixture {
    private final ClusterState state;
    private final ControlHarness harness;
    private final List<Node> nodes;
    private final List<Partition> partitions;

    private ClusterFixture(List<Node> nodes, List<Partition> partitions) {
        this.nodes = List.copyOf(nodes);
        this.partitions = List.copyOf(partitions);
        this.state = new ClusterState(nodes, partitions, 1);
        this.harness = new ControlHarness();
    }

    public static Builder aCluster() {
        return new Builder();
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

    /** A node as the current image shows it. */
    public NodeView node(String name) {
        return state.image().node(name).orElseThrow();
    }

    public static final class Builder {
        private List<String> names = List.of("n1");
        private int cpus = 4;
        private long memoryMb = 1000;
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

        /** CPUs of each node ({@link NodeHardware#ofCpus}). */
        public Builder cpus(int value) {
            cpus = value;
            return this;
        }

        public Builder memoryMb(long value) {
            memoryMb = value;
            return this;
        }

        /** The partitions over the nodes' names; one default partition {@code p} unless given. */
        public Builder partitions(Function<List<String>, List<Partition>> value) {
            partitions = value;
            return this;
        }

        /** When the nodes registered (their last busy time until a job leaves them) and were last heard. */
        public Builder at(long registered, long heard) {
            registeredAt = registered;
            heardAt = heard;
            return this;
        }

        public ClusterFixture build() {
            List<Node> nodes = new ArrayList<>();
            for (String name : names) {
                nodes.add(Node.configured(
                        name, name, "127.0.0.1", 0, hardware(), List.of(), GresInventory.NONE, 1, false));
            }
            ClusterFixture cluster = new ClusterFixture(nodes, partitions.apply(names));
            for (String name : names) {
                cluster.replay(new StateRecord.NodeRegistered(
                        name, name, "127.0.0.1", 1, hardware(), false, 1, "v", registeredAt));
                cluster.state.heard(name, heardAt);
            }
            return cluster;
        }

        private NodeHardware hardware() {
            return NodeHardware.ofCpus(cpus, memoryMb);
        }
    }
}
