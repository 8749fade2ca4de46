package dev.sluice.ctld.rpc;

import dev.sluice.common.hostlist.HostList;
import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.SlurmLimits;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.Dependency;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.JobTimes;
import dev.sluice.ctld.state.ListedTres;
import dev.sluice.ctld.state.NodeHardware;
import dev.sluice.ctld.state.Partition;
import dev.sluice.ctld.wire.WireMapper;
import dev.sluice.protocol.WireStates;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.NodeGres;
import dev.sluice.protocol.v1.PartitionInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;

/** Builds the query answers ({@code squeue}, {@code sinfo}, {@code scontrol show}) from an image. */
public final class InfoMapper {
    private InfoMapper() {}

    /**
     * What an answer's jobs are shown against, worked out once per answer: the partitions'
     * node shapes and whether memory is a consumable resource.
     *
     * @param partitionMemory a partition's smallest RealMemory: what a pending job that asks
     *     for no memory counts per node in its TRES, as Slurm shows it ({@link #partitionMemory})
     * @param partitionCpus a partition's largest node CPU count: a pending job's node count is
     *     estimated from its CPUs with it ({@link ListedTres#nodes}); 0 for no estimate
     * @param memoryConsumable SelectTypeParameters with memory: otherwise a running job's TRES
     *     has no {@code mem=} (Slurm 22.05 under CR_Core: {@code TRES=cpu=1,node=1,billing=1}
     *     for {@code --mem=1000})
     */
    public record Shown(
            ToLongFunction<String> partitionMemory,
            ToIntFunction<String> partitionCpus,
            boolean memoryConsumable,
            java.util.Set<String> trackedLicenses) {
        public Shown {
            trackedLicenses = java.util.Set.copyOf(trackedLicenses);
        }

        /** @param trackedLicenses the licenses AccountingStorageTRES names: those in the TRES */
        public static Shown of(ClusterImage image, boolean memoryConsumable, java.util.Set<String> trackedLicenses) {
            return new Shown(
                    InfoMapper.partitionMemory(image),
                    InfoMapper.partitionCpus(image),
                    memoryConsumable,
                    trackedLicenses);
        }
    }

    /**
     * A job as accounting records it, unbuilt: TRES with memory as allocated, no node estimate
     * (what TestAccountingJobs holds accounting's own mapping to).
     *
     * @param trackedLicenses the licenses AccountingStorageTRES names: those in the TRES
     */
    public static JobInfo.Builder jobBuilder(
            ClusterImage image,
            Job job,
            boolean withScript,
            ToLongFunction<String> partitionMemory,
            java.util.Set<String> trackedLicenses,
            long now) {
        return jobBuilder(image, job, withScript, new Shown(partitionMemory, p -> 0, true, trackedLicenses), now);
    }

    /** @param now the time the answer is for, epoch seconds (an {@code after:J+N} dependency) */
    public static JobInfo job(ClusterImage image, Job job, boolean withScript, Shown shown, long now) {
        return jobBuilder(image, job, withScript, shown, now).build();
    }

    private static JobInfo.Builder jobBuilder(ClusterImage image, Job job, boolean withScript, Shown shown, long now) {
        JobRequest r = job.request();
        JobSpec spec = WireMapper.toWire(r, withScript);
        if (job.terms().hold() == Job.Hold.RESV_DEL) {
            // Slurm forgets the name when it holds the job; Sluice keeps it only to say which.
            spec = spec.toBuilder().setReservation("").build();
        }
        Allocation a = job.allocation();
        boolean holds = a != null;
        int cpus = ListedTres.cpus(job);
        int nodes = ListedTres.nodes(
                job, cpus, shown.partitionCpus().applyAsInt(job.terms().partition()));
        JobReason reason = image.reason(job);
        long start = job.isPending()
                ? JobTimes.expectedStart(job, image.expectedStarts().getOrDefault(job.id(), 0L), now)
                : job.run().startTime();
        JobInfo.Builder b = JobInfo.newBuilder()
                .setJobId(job.id())
                .setSpec(spec)
                .setState(WireMapper.toWire(job.status().state()))
                .setReason(reason.slurmName())
                .setSubmitTime(job.run().submitTime())
                .setEligibleTime(JobTimes.eligible(job, reason))
                .setAccrueTime(JobTimes.accrue(job, reason))
                .setLastSchedEval(JobTimes.lastSchedEval(job))
                .setStartTime(start)
                .setEndTime(
                        job.isPending()
                                ? JobTimes.expectedEnd(job, start)
                                : job.run().endTime())
                .setNumNodes(nodes)
                .setNumCpus(cpus)
                .setExitStatus(job.status().exitStatus())
                .setDerivedExitStatus(image.derivedExit(job))
                .setCompleting(image.isCompleting(job))
                .setTimeLimitMinutes((int) job.terms().timeLimitMinutes())
                .setPartition(job.terms().partition())
                .setPriority((int)
                        Math.min(SlurmLimits.MAX_UINT32, image.priorities().getOrDefault(job.id(), 0L)))
                .setArrayJobId(job.array().arrayJobId())
                .setArrayTaskId(
                        job.array().pendingTasks().isEmpty() ? job.array().taskId() : -1)
                .setArrayTaskStr(
                        job.array().pendingTasks().isEmpty()
                                ? ""
                                : job.array().pendingTasks().format()
                                        + (job.array().throttle() > 0
                                                ? "%" + job.array().throttle()
                                                : ""))
                .setDisplayId(job.displayId())
                .setWaitDetail(job.isPending() ? waitDetail(image, job) : "")
                .setReasonDetail(stateDescription(image, job))
                .setPrologFailedNode(image.prologFailedOn(job).orElse(""))
                .setSchedNodes(job.isPending() ? image.schedNodes(job.id()) : "")
                .setHold(
                        job.terms().hold() == Job.Hold.NONE
                                ? ""
                                : job.terms().hold().name())
                .setDependency(dependency(image, job, now))
                .setReqTres(ListedTres.requested(job, cpus, nodes, shown.partitionMemory(), shown.trackedLicenses())
                        .format())
                .setTresPerNode(tresPerNode(r))
                .setRequeue(r.requeue())
                .setRestartCount(job.run().restartCount())
                .setSuspendTime(job.suspension().time())
                .setPreSuspendSeconds(job.suspension().preSuspendSeconds())
                .setStdOut(r.io().stdOut())
                .setStdErr(r.io().stdErr())
                .setStdIn(r.io().stdIn())
                .setBatchFlag(!r.launch().script().isEmpty())
                .setWorkDir(r.launch().workDir());
        if (holds) {
            b.setJobCpusPerNode(dev.sluice.common.slurm.RepeatCounts.format(
                            a.nodes().stream().map(Allocation.NodeShare::cpus).toList()))
                    .setTasksPerNode(dev.sluice.common.slurm.RepeatCounts.format(
                            a.nodes().stream().map(Allocation.NodeShare::tasks).toList()));
            b.setNodeList(HostList.compress(a.nodeNames()))
                    .setBatchHost(a.batchHost())
                    .setMemPerNodeMb(a.nodes().get(0).memoryMb())
                    .setAllocTres(ListedTres.allocated(a, r, shown.memoryConsumable(), shown.trackedLicenses())
                            .format());
            for (Allocation.NodeShare share : a.nodes()) {
                b.addNodeGres(NodeGres.newBuilder()
                        .setNode(share.node())
                        .addAllGrants(WireMapper.toWireGres(share.gres()))
                        .addAllCpuIds(cpuIds(image, share))
                        .setMemoryMb(shown.memoryConsumable() ? share.memoryMb() : 0));
            }
        }
        return b;
    }

    /**
     * The CPUs of a node's share as Slurm numbers them: each held core's threads, core * threads
     * per core + thread. Shares recorded before cores were tracked have none to show.
     */
    private static List<Integer> cpuIds(ClusterImage image, Allocation.NodeShare share) {
        int threads = image.node(share.node())
                .map(v -> Math.max(1, v.node().hardware().threadsPerCore()))
                .orElse(1);
        List<Integer> ids = new ArrayList<>();
        for (int core : share.cores()) {
            for (int t = 0; t < threads; t++) {
                ids.add(core * threads + t);
            }
        }
        return ids;
    }

    /** A partition's largest node CPU count, worked out once per partition per answer. */
    static ToIntFunction<String> partitionCpus(ClusterImage image) {
        var max = perPartition(
                image, nodes -> nodes.mapToLong(h -> h.cpus()).max().orElse(0));
        return name -> (int) max.applyAsLong(name);
    }

    /**
     * A partition's smallest configured RealMemory, worked out once per partition per answer
     * (a listing of 100,000 jobs asks it for each pending one).
     */
    static ToLongFunction<String> partitionMemory(ClusterImage image) {
        return perPartition(
                image, nodes -> nodes.mapToLong(h -> h.realMemoryMb()).min().orElse(0));
    }

    /** One figure over the hardware of a partition's nodes, memoized per partition; 0 for none. */
    private static ToLongFunction<String> perPartition(
            ClusterImage image, java.util.function.ToLongFunction<java.util.stream.Stream<NodeHardware>> figure) {
        Map<String, Long> memo = new HashMap<>();
        return name -> memo.computeIfAbsent(
                name,
                n -> image.partition(n)
                        .map(p -> figure.applyAsLong(p.nodes().stream()
                                .map(image::node)
                                .flatMap(java.util.Optional::stream)
                                .map(v -> v.node().hardware())))
                        .orElse(0L));
    }

    /** What a job still waits for; a finished or running job waits for nothing. */
    static String dependency(ClusterImage image, Job job, long now) {
        Dependency dependency = job.request().sequencing().dependency();
        if (dependency.text().isBlank() || !job.isPending()) {
            return "";
        }
        if (!dependency.valid()) {
            return dependency.text();
        }
        return dependency.remaining(image, job, now, job.terms().hold() == Job.Hold.NONE);
    }

    /**
     * Slurm's state description: for ReqNodeNotAvail, which of the nodes the job asked for
     * ({@code -w}) cannot take it now (down, drained, not responding).
     */
    static String stateDescription(ClusterImage image, Job job) {
        if (job.isPending() && job.terms().hold() == Job.Hold.RESV_DEL) {
            return "Reservation " + job.request().reservation() + " was deleted";
        }
        if (!job.isPending() || !image.reasonOf(job).equals(JobReason.REQ_NODE_NOT_AVAIL.slurmName())) {
            return "";
        }
        List<String> unavailable = job.request().placement().reqNodes().names().stream()
                .filter(n -> image.node(n).map(v -> !v.isSchedulable()).orElse(true))
                .toList();
        return unavailable.isEmpty() ? "" : "ReqNodeNotAvail, UnavailableNodes:" + HostList.compress(unavailable);
    }

    /** The explanation of a wait; the expected start travels as the pending job's start_time. */
    static String waitDetail(ClusterImage image, Job job) {
        return image.reasonDetails().getOrDefault(job.id(), "");
    }

    /** Slurm's TRES_PER_NODE: {@code gres/gpu:2}, lists joined by commas. */
    static String tresPerNode(JobRequest r) {
        List<String> parts = new ArrayList<>();
        for (String item : r.gres().text().split(",")) {
            String t = item.strip();
            if (!t.isEmpty()) {
                parts.add("gres/" + (t.startsWith("gres:") || t.startsWith("gres/") ? t.substring(5) : t));
            }
        }
        if (!r.gpuOptions().gpusPerNode().text().isEmpty()) {
            parts.add("gres/gpu:" + r.gpuOptions().gpusPerNode().text());
        }
        return String.join(",", parts);
    }

    static PartitionInfo partition(ClusterImage image, Partition p) {
        int cpus = p.nodes().stream()
                .map(image::node)
                .flatMap(java.util.Optional::stream)
                .mapToInt(v -> v.node().hardware().cpus())
                .sum();
        return PartitionInfo.newBuilder()
                .setName(p.name())
                .setNodes(p.nodes().isEmpty() ? "" : HostList.compress(p.nodes()))
                .addAllNodeNames(p.nodes())
                .setIsDefault(p.isDefault())
                .setMaxTimeMinutes((int) p.limits().maxTimeMinutes())
                .setDefaultTimeMinutes((int) p.limits().defaultTimeMinutes())
                .setMaxNodes(
                        p.limits().maxNodes() == Partition.NODES_UNLIMITED
                                ? -1
                                : p.limits().maxNodes())
                .setMinNodes(p.limits().minNodes())
                .setState(WireStates.toWire(p.state()))
                .setTotalCpus(cpus)
                .setTotalNodes(p.nodes().size())
                .setPriorityTier(p.scheduling().priorityTier())
                .setPreemptMode(p.scheduling().preemptMode())
                .setOverSubscribe(p.scheduling().overSubscribe())
                .setGraceTimeSeconds(p.scheduling().graceTimeSeconds())
                .setPriorityJobFactor(p.scheduling().priorityJobFactor())
                .setHidden(p.access().hidden())
                .setDefMemPerCpuMb(p.memory().defMemPerCpuMb())
                .setMaxMemPerNodeMb(p.memory().maxMemPerNodeMb())
                .build();
    }
}
