package dev.sluice.ctld;

import dev.sluice.common.gres.GresSpec;
import dev.sluice.ctld.gres.GresDemand;
import dev.sluice.ctld.gres.GresInventory;
import dev.sluice.ctld.gres.GresPool;
import dev.sluice.ctld.select.NodeCapacity;
import dev.sluice.ctld.select.PlacementRequest;
import dev.sluice.ctld.state.CoreSet;
import dev.sluice.ctld.state.FeatureConstraint;
import dev.sluice.ctld.state.NodeHardware;
import java.util.List;
import java.util.Set;

/**
 * Fixture builders for the placement tests, which see nodes and requests as the allocator does:
 * {@code aNode("n1").cpus(8).threads(2).build()}, {@code aRequest().tasks(4).build()}.
 */
public final class PlacementBuilders {
    private PlacementBuilders() {}

    public static NodeBuilder aNode(String name) {
        return new NodeBuilder(name);
    }

    public static RequestBuilder aRequest() {
        return new RequestBuilder();
    }

    public static final class NodeBuilder {
        private final String name;
        private int cpus = 4;
        private int threads = 1;
        private long memory = 4000;
        private int usedCpus;
        private long usedMemory;
        private boolean up = true;
        private int weight = 1;
        private String gres = "";
        private List<String> features = List.of();

        NodeBuilder(String name) {
            this.name = name;
        }

        public NodeBuilder cpus(int value) {
            cpus = value;
            return this;
        }

        public NodeBuilder threads(int value) {
            threads = value;
            return this;
        }

        public NodeBuilder memory(long mb) {
            memory = mb;
            return this;
        }

        public NodeBuilder used(int cpusInUse, long memoryInUse) {
            usedCpus = cpusInUse;
            usedMemory = memoryInUse;
            return this;
        }

        public NodeBuilder down() {
            up = false;
            return this;
        }

        public NodeBuilder weight(int value) {
            weight = value;
            return this;
        }

        public NodeBuilder features(String... values) {
            features = List.of(values);
            return this;
        }

        /** Slurm's node {@code Gres=} value, e.g. {@code gpu:3,mps:300}. */
        public NodeBuilder gres(String value) {
            gres = value;
            return this;
        }

        public GresInventory inventory() {
            return GresInventory.of(GresSpec.parseNodeList(gres), List.of());
        }

        public NodeHardware hardware() {
            return new NodeHardware(cpus, 1, 1, cpus / threads, threads, memory, 0);
        }

        public NodeCapacity build() {
            return new NodeCapacity(
                    name,
                    hardware(),
                    cpus - usedCpus,
                    memory - usedMemory,
                    usedCpus == 0,
                    up,
                    features,
                    weight,
                    GresPool.idle(inventory()),
                    CoreSet.EMPTY);
        }
    }

    public static final class RequestBuilder {
        private int minNodes = 1;
        private int maxNodes;
        private int tasks = 1;
        private int cpusPerTask = 1;
        private int tasksPerNode;
        private long memPerNode;
        private long memPerCpu;
        private boolean memory;
        private boolean exclusive;
        private Set<String> required = Set.of();
        private Set<String> excluded = Set.of();
        private GresDemand gres = GresDemand.NONE;

        /** Per-node GRES items as {@code --gres} gives them: {@code gres("gpu", "", 2)}. */
        public RequestBuilder gres(String name, String type, long count) {
            List<GresDemand.Item> items = new java.util.ArrayList<>(gres.perNode());
            items.add(new GresDemand.Item(name, type, count));
            gres = new GresDemand(
                    items,
                    gres.gpusPerTask(),
                    gres.gpuTypePerTask(),
                    gres.gpusPerJob(),
                    gres.gpuTypePerJob(),
                    gres.cpusPerGpu(),
                    gres.memPerGpuMb());
            return this;
        }

        public RequestBuilder gpusPerTask(long n) {
            gres = new GresDemand(gres.perNode(), n, "", gres.gpusPerJob(), "", gres.cpusPerGpu(), gres.memPerGpuMb());
            return this;
        }

        public RequestBuilder gpusPerJob(long n) {
            gres = new GresDemand(gres.perNode(), gres.gpusPerTask(), "", n, "", gres.cpusPerGpu(), gres.memPerGpuMb());
            return this;
        }

        public RequestBuilder cpusPerGpu(int n) {
            gres = new GresDemand(gres.perNode(), gres.gpusPerTask(), "", gres.gpusPerJob(), "", n, gres.memPerGpuMb());
            return this;
        }

        public RequestBuilder nodes(int value) {
            minNodes = value;
            return this;
        }

        public RequestBuilder nodes(int min, int max) {
            minNodes = min;
            maxNodes = max;
            return this;
        }

        public RequestBuilder tasks(int value) {
            tasks = value;
            return this;
        }

        public RequestBuilder cpusPerTask(int value) {
            cpusPerTask = value;
            return this;
        }

        public RequestBuilder tasksPerNode(int value) {
            tasksPerNode = value;
            return this;
        }

        public RequestBuilder memPerNode(long mb) {
            memPerNode = mb;
            memory = true;
            return this;
        }

        public RequestBuilder memPerCpu(long mb) {
            memPerCpu = mb;
            memory = true;
            return this;
        }

        public RequestBuilder exclusive() {
            exclusive = true;
            return this;
        }

        public RequestBuilder require(String... nodes) {
            required = Set.of(nodes);
            return this;
        }

        public RequestBuilder exclude(String... nodes) {
            excluded = Set.of(nodes);
            return this;
        }

        public PlacementRequest build() {
            return new PlacementRequest(
                    new PlacementRequest.Shape(minNodes, maxNodes, tasks, cpusPerTask, tasksPerNode),
                    new PlacementRequest.MemoryAsk(memPerNode, memPerCpu, memory),
                    new PlacementRequest.NodeChoice(exclusive, required, excluded, FeatureConstraint.NONE),
                    gres,
                    false);
        }
    }
}
