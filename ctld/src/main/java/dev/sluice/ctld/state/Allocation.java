package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

import dev.sluice.ctld.gres.GresGrant;
import java.util.List;

/** Resources a running job holds: per node, CPUs, memory and tasks. */
public record Allocation(List<NodeShare> nodes) {
    public Allocation {
        nodes = List.copyOf(nodes);
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("an allocation has at least one node");
        }
    }

    /**
     * What the job holds on one node.
     *
     * @param cores the node's cores held, ascending (Slurm's core numbering, as in gres.conf's
     *     {@code Cores=}); empty for an allocation recorded before cores were tracked, which
     *     then counts against the node's CPUs only
     */
    public record NodeShare(
            String node, int cpus, long memoryMb, int tasks, List<GresGrant> gres, List<Integer> cores) {
        public NodeShare {
            requireNonNull(node, "node is null");
            gres = List.copyOf(gres);
            cores = List.copyOf(cores);
        }

        /** A share with no GRES and no cores recorded: it counts against the node's CPUs only. */
        public static NodeShare of(String node, int cpus, long memoryMb, int tasks) {
            return new NodeShare(node, cpus, memoryMb, tasks, List.of(), List.of());
        }

        /** A share with GRES and no cores recorded. */
        public static NodeShare withGres(String node, int cpus, long memoryMb, int tasks, List<GresGrant> gres) {
            return new NodeShare(node, cpus, memoryMb, tasks, gres, List.of());
        }

        /** Units of {@code name} held here (GPUs, or the MPS/shard amount). */
        public long gresCount(String name) {
            return gres.stream()
                    .filter(g -> g.name().equals(name))
                    .mapToLong(GresGrant::count)
                    .sum();
        }
    }

    public long totalGres(String name) {
        return nodes.stream().mapToLong(n -> n.gresCount(name)).sum();
    }

    public int totalCpus() {
        return nodes.stream().mapToInt(NodeShare::cpus).sum();
    }

    public long totalMemoryMb() {
        return nodes.stream().mapToLong(NodeShare::memoryMb).sum();
    }

    public List<String> nodeNames() {
        return nodes.stream().map(NodeShare::node).toList();
    }

    /** The node that runs the batch script: the first of the allocation, as in Slurm. */
    public String batchHost() {
        return nodes.get(0).node();
    }
}
