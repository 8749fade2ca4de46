package dev.sluice.ctld;

import dev.sluice.common.gres.GresSpec;
import dev.sluice.ctld.gres.GresDemand;
import dev.sluice.ctld.gres.GresInventory;
import dev.sluice.ctld.gres.GresPool;
import dev.sluice.ctld.select.NodeCapacity;
import dev.sluice.ctld.select.PlacementRequest;
import dev.sluice.ctld.state.CoreSet;
import dev.sluice.ctld.state.Dependency;
import dev.sluice.ctld.state.FeatureConstraint;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.NodeHardware;
import dev.sluice.ctld.state.Partition;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Fixture builders for controller tests: {@code aNode("n1").cpus(8).threads(2).build()}. */
public final class Builders {
    private Builders() {}

    public static NodeBuilder aNode(String name) {
        return new NodeBuilder(name);
    }

    public static JobBuilder aJob() {
        return new JobBuilder();
    }

    public static RequestBuilder aRequest() {
        return new RequestBuilder();
    }

    /**
     * A cluster of registered, idle nodes of {@code cpus} CPUs and {@code memoryMb} MB each,
     * all in one default partition {@code p}, heard from at {@code now}.
     */
    public static dev.sluice.ctld.state.ClusterState anIdleCluster(
            List<String> names, int cpus, long memoryMb, long now) {
        return ClusterFixture.aCluster()
                .names(names)
                .cpus(cpus)
                .memoryMb(memoryMb)
                .at(now - 100, now)
                .build()
                .state();
    }

    public static Partition aPartition(String name, List<String> nodes) {
        return Partition.builder(name).nodes(nodes).isDefault(true).build();
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

    public static final class JobBuilder {
        private String name = "job";
        private String script = "#!/bin/sh\ntrue\n";
        private int nodes;
        private int maxNodes;
        private int tasks;
        private int cpusPerTask;
        private String partition = "";
        private long timeLimit = JobRequest.TIME_NOT_SET;
        private boolean hold;
        private int uid = 1000;
        private String excludeNodes = "";
        private boolean exclusive;
        private String gres = "";
        private JobRequest.Sequencing sequencing = JobRequest.Sequencing.NONE;
        private boolean requeue;
        private String qos = "";
        private String account = "";
        private long memPerNodeMb;
        private String licenses = "";
        private String reservation = "";
        private String reqNodes = "";

        /** {@code sbatch --reservation}. */
        public JobBuilder reservation(String value) {
            reservation = value;
            return this;
        }

        /** {@code sbatch -w}. */
        public JobBuilder require(String hostlist) {
            reqNodes = hostlist;
            return this;
        }

        /** {@code sbatch -x}. */
        public JobBuilder exclude(String hostlist) {
            excludeNodes = hostlist;
            return this;
        }

        /** {@code sbatch -L}. */
        public JobBuilder licenses(String value) {
            licenses = value;
            return this;
        }

        /** {@code sbatch --mem}. */
        public JobBuilder memPerNode(long mb) {
            memPerNodeMb = mb;
            return this;
        }

        /** {@code sbatch -A}. */
        public JobBuilder account(String value) {
            account = value;
            return this;
        }

        /** {@code sbatch --requeue}. */
        public JobBuilder requeue() {
            requeue = true;
            return this;
        }

        public JobBuilder array(String spec) {
            sequencing = new JobRequest.Sequencing(
                    dev.sluice.ctld.state.ArrayRequest.read(spec),
                    sequencing.dependency(),
                    sequencing.killOnInvalidDep(),
                    sequencing.beginTime());
            return this;
        }

        public JobBuilder dependency(String spec, boolean killOnInvalid) {
            sequencing = new JobRequest.Sequencing(
                    sequencing.array(), Dependency.read(spec), killOnInvalid, sequencing.beginTime());
            return this;
        }

        public JobBuilder begin(long epochSeconds) {
            sequencing = new JobRequest.Sequencing(
                    sequencing.array(), sequencing.dependency(), sequencing.killOnInvalidDep(), epochSeconds);
            return this;
        }

        public JobBuilder gres(String value) {
            gres = value;
            return this;
        }

        public JobBuilder name(String value) {
            name = value;
            return this;
        }

        public JobBuilder nodes(int value) {
            nodes = value;
            return this;
        }

        public JobBuilder nodes(int min, int max) {
            nodes = min;
            maxNodes = max;
            return this;
        }

        public JobBuilder tasks(int value) {
            tasks = value;
            return this;
        }

        public JobBuilder cpusPerTask(int value) {
            cpusPerTask = value;
            return this;
        }

        public JobBuilder partition(String value) {
            partition = value;
            return this;
        }

        /** An empty script makes an allocation (salloc, a lone srun). */
        public JobBuilder script(String value) {
            this.script = value;
            return this;
        }

        public JobBuilder timeLimit(long minutes) {
            timeLimit = minutes;
            return this;
        }

        public JobBuilder hold() {
            hold = true;
            return this;
        }

        public JobBuilder uid(int value) {
            uid = value;
            return this;
        }

        public JobBuilder exclusive() {
            exclusive = true;
            return this;
        }

        public JobBuilder qos(String value) {
            qos = value;
            return this;
        }

        public JobRequest build() {
            return JobRequest.builder(new JobRequest.Owner(uid, uid, "user" + uid))
                    .name(name)
                    .script(script)
                    .workDir("/tmp")
                    .environment(Map.of("PATH", "/usr/bin:/bin"))
                    .minNodes(nodes)
                    .maxNodes(maxNodes)
                    .numTasks(tasks)
                    .cpusPerTask(cpusPerTask)
                    .partition(partition)
                    .timeLimitMinutes(timeLimit)
                    .submitHost("login1")
                    .exclusive(exclusive)
                    .memPerNodeMb(memPerNodeMb)
                    .reqNodes(reqNodes)
                    .excludeNodes(excludeNodes)
                    .account(account)
                    .hold(hold)
                    .gresPerNode(gres)
                    .requeue(requeue)
                    .qos(qos)
                    .sequencing(sequencing)
                    .licenses(dev.sluice.common.slurm.Licenses.parse(licenses))
                    .reservation(reservation)
                    .build();
        }
    }
}
