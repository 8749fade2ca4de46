package dev.sluice.ctld;

import dev.sluice.ctld.state.Dependency;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.Partition;
import java.util.List;
import java.util.Map;

/**
 * Fixture builders for controller tests: jobs as submitted ({@code aJob().tasks(4).build()}),
 * partitions and idle clusters. What placement sees of nodes and requests: {@link
 * PlacementBuilders}.
 */
public final class Builders {
    private Builders() {}

    public static JobBuilder aJob() {
        return new JobBuilder();
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
                    sequencing.beginTime(),
                    sequencing.deadline());
            return this;
        }

        public JobBuilder dependency(String spec, boolean killOnInvalid) {
            sequencing = new JobRequest.Sequencing(
                    sequencing.array(),
                    Dependency.read(spec),
                    killOnInvalid,
                    sequencing.beginTime(),
                    sequencing.deadline());
            return this;
        }

        public JobBuilder begin(long epochSeconds) {
            sequencing = new JobRequest.Sequencing(
                    sequencing.array(),
                    sequencing.dependency(),
                    sequencing.killOnInvalidDep(),
                    epochSeconds,
                    sequencing.deadline());
            return this;
        }

        /** {@code --deadline}, as epoch seconds. */
        public JobBuilder deadline(long epochSeconds) {
            sequencing = new JobRequest.Sequencing(
                    sequencing.array(),
                    sequencing.dependency(),
                    sequencing.killOnInvalidDep(),
                    sequencing.beginTime(),
                    epochSeconds);
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
