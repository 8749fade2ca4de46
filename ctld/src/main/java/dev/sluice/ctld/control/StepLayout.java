package dev.sluice.ctld.control;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.ctld.state.Allocation;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which of its job's nodes a step runs on and how many of its tasks each runs, as Slurm 22.05's
 * step layout decides with the default {@code block} distribution. Pure.
 *
 * <p>Nodes: those {@code -w} names (each must be the job's), then the job's others in order,
 * starting at {@code -r}'s offset. Tasks: counted out one per node per round, a node taking one
 * more only while its CPUs hold it, so that they spread evenly ({@code srun -m ...,Pack} is
 * what packs them; a node with fewer CPUs keeps fewer); the ids are then handed out in blocks, the
 * first node's first ({@code -N2 -n4} on two 4-CPU nodes: 0,1 and 2,3; on nodes of 3 and 1
 * CPUs: 0,1,2 and 3).
 */
public final class StepLayout {
    private StepLayout() {}

    /** The step's nodes (indices into the job's) and the tasks each runs, in step node order. */
    public record Layout(List<Integer> nodes, int[] tasksPerNode) {}

    /**
     * @param nodeCount the step's nodes, 0 = as few as its tasks' CPUs need
     * @param nodeList {@code -w}: nodes the step must run on, empty for any
     * @param relative {@code -r}: the index of the job's node the step starts at
     * @throws SlurmException {@code Requested node configuration is not available} for nodes the
     *     job does not have, {@code More processors requested than permitted} for more tasks
     *     than the nodes' CPUs hold
     */
    public static Layout of(
            Allocation job, int tasks, int nodeCount, int cpusPerTask, List<String> nodeList, int relative) {
        List<Integer> nodes = nodes(job, tasks, nodeCount, cpusPerTask, nodeList, relative);
        if (tasks < nodes.size()) {
            throw new SlurmException(ErrorCode.TOO_MANY_REQUESTED_CPUS);
        }
        int[] capacity = new int[nodes.size()];
        for (int i = 0; i < nodes.size(); i++) {
            capacity[i] = job.nodes().get(nodes.get(i)).cpus() / cpusPerTask;
        }
        return new Layout(nodes, spread(tasks, capacity));
    }

    /** Round by round, one more task on each node that still has room. */
    static int[] spread(int tasks, int[] capacity) {
        int[] perNode = new int[capacity.length];
        int left = tasks;
        boolean placed = true;
        while (left > 0 && placed) {
            placed = false;
            for (int i = 0; i < capacity.length && left > 0; i++) {
                if (perNode[i] < capacity[i]) {
                    perNode[i]++;
                    left--;
                    placed = true;
                }
            }
        }
        for (int n : perNode) {
            // Every node of a step runs a task: one whose CPUs cannot hold one refuses the step.
            if (n == 0 && tasks > 0) {
                throw new SlurmException(ErrorCode.TOO_MANY_REQUESTED_CPUS);
            }
        }
        if (left > 0) {
            throw new SlurmException(ErrorCode.TOO_MANY_REQUESTED_CPUS);
        }
        return perNode;
    }

    private static List<Integer> nodes(
            Allocation job, int tasks, int nodeCount, int cpusPerTask, List<String> nodeList, int relative) {
        int jobNodes = job.nodes().size();
        if (relative < 0 || relative >= jobNodes) {
            throw new SlurmException(ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE);
        }
        Set<Integer> chosen = new LinkedHashSet<>();
        for (String name : nodeList) {
            int at = indexOf(job, name);
            if (at < 0) {
                throw new SlurmException(ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE);
            }
            chosen.add(at);
        }
        int wanted = nodeCount > 0 ? Math.max(nodeCount, chosen.size()) : chosen.size();
        if (wanted > jobNodes) {
            throw new SlurmException(ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE);
        }
        List<Integer> order = new ArrayList<>();
        for (int i = relative; i < jobNodes; i++) {
            order.add(i);
        }
        if (nodeCount <= 0 && chosen.isEmpty()) {
            // As few nodes as the tasks' CPUs need, and no more nodes than tasks.
            int needed = Math.max(1, tasks) * cpusPerTask;
            for (int i : order) {
                if (needed <= 0 || chosen.size() >= Math.max(1, tasks)) {
                    break;
                }
                chosen.add(i);
                needed -= job.nodes().get(i).cpus();
            }
            return List.copyOf(chosen);
        }
        for (int i = 0; chosen.size() < wanted && i < order.size(); i++) {
            chosen.add(order.get(i));
        }
        if (chosen.size() < wanted) {
            // -r left too few of the job's nodes after it.
            throw new SlurmException(ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE);
        }
        // Job order, whatever order -w named them in.
        return chosen.stream().sorted().toList();
    }

    private static int indexOf(Allocation job, String name) {
        for (int i = 0; i < job.nodes().size(); i++) {
            if (job.nodes().get(i).node().equals(name)) {
                return i;
            }
        }
        return -1;
    }
}
