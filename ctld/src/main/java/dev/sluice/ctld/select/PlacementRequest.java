package dev.sluice.ctld.select;

import static java.util.Objects.requireNonNull;

import dev.sluice.ctld.gres.GresDemand;
import dev.sluice.ctld.state.FeatureConstraint;
import java.util.Set;

/**
 * A job's resource request with partition and configuration defaults already applied: how many
 * nodes, tasks and CPUs, how much memory, which nodes, and what generic resources. The accessors
 * below read the parts' fields directly, as the allocator does.
 *
 * @param gres generic resources wanted ({@link GresDemand#NONE} when none)
 * @param enforceBinding {@code --gres-flags=enforce-binding}: only cores listed in the granted
 *     devices' {@code Cores=} may be given
 */
public record PlacementRequest(
        Shape shape, MemoryAsk memory, NodeChoice nodes, GresDemand gres, boolean enforceBinding) {

    /**
     * Nodes, tasks and CPUs. A maximum below the minimum is the minimum; every node runs a task
     * at least.
     *
     * @param tasksPerNode {@code --ntasks-per-node}, 0 when not given
     */
    public record Shape(int minNodes, int maxNodes, int tasks, int cpusPerTask, int tasksPerNode) {
        public Shape {
            if (minNodes < 1) {
                throw new IllegalArgumentException("minNodes must be at least 1: " + minNodes);
            }
            if (maxNodes < minNodes) {
                maxNodes = minNodes;
            }
            if (cpusPerTask < 1) {
                throw new IllegalArgumentException("cpusPerTask must be at least 1: " + cpusPerTask);
            }
            tasks = Math.max(tasks, minNodes);
        }
    }

    /**
     * @param perNodeMb memory per node, 0 when derived from {@code perCpuMb}
     * @param perCpuMb memory per allocated CPU, 0 when the node's whole memory is meant
     * @param consumable whether memory is a consumable resource (SelectTypeParameters
     *     {@code CR_*_Memory}); when false memory never blocks placement
     */
    public record MemoryAsk(long perNodeMb, long perCpuMb, boolean consumable) {
        /** Memory not consumable: it never blocks placement. */
        public static final MemoryAsk NONE = new MemoryAsk(0, 0, false);
    }

    /**
     * Which nodes may be used, and how.
     *
     * @param required nodes it must have ({@code --nodelist})
     * @param excluded nodes it may not have ({@code --exclude}, or a reservation's)
     * @param constraint required node features ({@code --constraint})
     */
    public record NodeChoice(
            boolean exclusive, Set<String> required, Set<String> excluded, FeatureConstraint constraint) {
        /** Any node, shared. */
        public static final NodeChoice ANY = new NodeChoice(false, Set.of(), Set.of(), FeatureConstraint.NONE);

        public NodeChoice {
            required = Set.copyOf(required);
            excluded = Set.copyOf(excluded);
            requireNonNull(constraint, "constraint is null");
        }

        public NodeChoice withExcluded(Set<String> v) {
            return new NodeChoice(exclusive, required, v, constraint);
        }
    }

    public PlacementRequest {
        requireNonNull(shape, "shape is null");
        requireNonNull(memory, "memory is null");
        requireNonNull(nodes, "nodes is null");
        requireNonNull(gres, "gres is null");
    }

    /** The same request for other nodes. */
    public PlacementRequest withNodes(NodeChoice v) {
        return new PlacementRequest(shape, memory, v, gres, enforceBinding);
    }

    public int minNodes() {
        return shape.minNodes();
    }

    public int maxNodes() {
        return shape.maxNodes();
    }

    public int tasks() {
        return shape.tasks();
    }

    public int cpusPerTask() {
        return shape.cpusPerTask();
    }

    public int tasksPerNode() {
        return shape.tasksPerNode();
    }

    public long memPerNodeMb() {
        return memory.perNodeMb();
    }

    public long memPerCpuMb() {
        return memory.perCpuMb();
    }

    public boolean memoryConsumable() {
        return memory.consumable();
    }

    public boolean exclusive() {
        return nodes.exclusive();
    }

    public Set<String> requiredNodes() {
        return nodes.required();
    }

    public Set<String> excludedNodes() {
        return nodes.excluded();
    }

    public FeatureConstraint constraint() {
        return nodes.constraint();
    }
}
