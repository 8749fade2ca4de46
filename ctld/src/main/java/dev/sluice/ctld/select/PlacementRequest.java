package dev.sluice.ctld.select;

import dev.sluice.ctld.gres.GresDemand;
import dev.sluice.ctld.state.FeatureConstraint;
import java.util.Set;

/**
 * A job's resource request with partition and configuration defaults already applied.
 *
 * @param memPerNodeMb memory per node, 0 when derived from {@code memPerCpuMb}
 * @param memPerCpuMb memory per allocated CPU, 0 when the node's whole memory is meant
 * @param memoryConsumable whether memory is a consumable resource (SelectTypeParameters
 *     {@code CR_*_Memory}); when false memory never blocks placement
 * @param gres generic resources wanted ({@link GresDemand#NONE} when none)
 * @param constraint required node features ({@code --constraint})
 * @param enforceBinding {@code --gres-flags=enforce-binding}: only cores listed in the granted
 *     devices' {@code Cores=} may be given
 */
public record PlacementRequest(
        int minNodes,
        int maxNodes,
        int tasks,
        int cpusPerTask,
        int tasksPerNode,
        long memPerNodeMb,
        long memPerCpuMb,
        boolean memoryConsumable,
        boolean exclusive,
        Set<String> requiredNodes,
        Set<String> excludedNodes,
        GresDemand gres,
        FeatureConstraint constraint,
        boolean enforceBinding) {

    public PlacementRequest(
            int minNodes,
            int maxNodes,
            int tasks,
            int cpusPerTask,
            int tasksPerNode,
            long memPerNodeMb,
            long memPerCpuMb,
            boolean memoryConsumable,
            boolean exclusive,
            Set<String> requiredNodes,
            Set<String> excludedNodes,
            GresDemand gres,
            FeatureConstraint constraint) {
        this(
                minNodes,
                maxNodes,
                tasks,
                cpusPerTask,
                tasksPerNode,
                memPerNodeMb,
                memPerCpuMb,
                memoryConsumable,
                exclusive,
                requiredNodes,
                excludedNodes,
                gres,
                constraint,
                false);
    }

    public PlacementRequest(
            int minNodes,
            int maxNodes,
            int tasks,
            int cpusPerTask,
            int tasksPerNode,
            long memPerNodeMb,
            long memPerCpuMb,
            boolean memoryConsumable,
            boolean exclusive,
            Set<String> requiredNodes,
            Set<String> excludedNodes,
            GresDemand gres) {
        this(
                minNodes,
                maxNodes,
                tasks,
                cpusPerTask,
                tasksPerNode,
                memPerNodeMb,
                memPerCpuMb,
                memoryConsumable,
                exclusive,
                requiredNodes,
                excludedNodes,
                gres,
                FeatureConstraint.NONE);
    }

    public PlacementRequest {
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
        requiredNodes = Set.copyOf(requiredNodes);
        excludedNodes = Set.copyOf(excludedNodes);
        java.util.Objects.requireNonNull(gres, "gres is null");
        java.util.Objects.requireNonNull(constraint, "constraint is null");
    }
}
