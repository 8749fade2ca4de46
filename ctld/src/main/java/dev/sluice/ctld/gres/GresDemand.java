package dev.sluice.ctld.gres;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * What a job asks of generic resources, after option parsing: per node ({@code --gres},
 * {@code --gpus-per-node}), per task ({@code --gpus-per-task}), per job ({@code --gpus}), and the
 * CPUs and memory tied to each GPU ({@code --cpus-per-gpu}, {@code --mem-per-gpu}).
 */
public record GresDemand(
        List<Item> perNode,
        long gpusPerTask,
        String gpuTypePerTask,
        long gpusPerJob,
        String gpuTypePerJob,
        int cpusPerGpu,
        long memPerGpuMb) {

    public static final GresDemand NONE = new GresDemand(List.of(), 0, "", 0, "", 0, 0);

    public GresDemand {
        perNode = List.copyOf(perNode);
        requireNonNull(gpuTypePerTask, "gpuTypePerTask is null");
        requireNonNull(gpuTypePerJob, "gpuTypePerJob is null");
    }

    /** One {@code name[:type]:count} requirement; an empty type matches any. */
    public record Item(String name, String type, long count) {
        public Item {
            requireNonNull(name, "name is null");
            requireNonNull(type, "type is null");
        }
    }

    public boolean isEmpty() {
        return perNode.isEmpty() && gpusPerTask == 0 && gpusPerJob == 0;
    }

    /** GPUs this node must give for {@code tasks} tasks, from the per-node and per-task parts. */
    public long gpusOnNode(int tasks) {
        // A loop, not a stream: the allocator asks this for every node and task count it tries.
        long n = 0;
        for (Item i : perNode) {
            if (i.name().equals("gpu")) {
                n += i.count();
            }
        }
        return n + gpusPerTask * tasks;
    }
}
