package dev.sluice.packaging.replay;

import dev.sluice.common.error.SlurmException;
import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.config.CtldConfig;
import dev.sluice.ctld.control.ControlResult;
import dev.sluice.ctld.control.JobControl;
import dev.sluice.ctld.sched.SchedulePlan;
import dev.sluice.ctld.sched.Scheduler;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.DaemonReport;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.Node;
import dev.sluice.ctld.state.NodeEndpoint;
import dev.sluice.ctld.state.NodeEquipment;
import dev.sluice.ctld.state.NodeFacts;
import dev.sluice.ctld.state.Partition;
import dev.sluice.ctld.state.StateRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Replays a trace through the controller's own code on a virtual clock: submissions go through
 * {@link JobControl#submit} (so a job the cluster could never run is refused as {@code sbatch}
 * would be), every instant at which something happens gets one {@link Scheduler} pass (main
 * scheduler, backfill reservations, allocator) whose starts are applied as the controller loop
 * applies them, and a job ends after its trace run time, or is killed ({@code TIMEOUT}) at its
 * time limit. Nothing happens between two events, so skipping from one to the next loses no
 * scheduling decision the controller's once-a-second passes would make.
 *
 * <p>No journal, threads or sockets: the state is the controller's {@link ClusterState}, changed
 * only through its records. Deterministic: the same trace and configuration give the same
 * outcomes.
 */
public final class WorkloadReplay {
    /** Where the trace's zero lies on the controller's clock (any time after 1970 will do). */
    static final long EPOCH = 1_700_000_000L;

    private final CtldConfig config;
    private final double gpusPerCpu;
    private final ClusterState state;
    private final JobControl control;
    private final Scheduler scheduler;
    private final Map<String, Integer> tiers = new HashMap<>();
    private long sequence;

    /**
     * @param gpusPerCpu SWF has no GPU field: each job asks {@code --gpus=ceil(processors x this)},
     *     0 for none
     */
    public WorkloadReplay(CtldConfig config, double gpusPerCpu) {
        this.config = config;
        this.gpusPerCpu = gpusPerCpu;
        this.state = new ClusterState(
                config.nodes(), config.partitions(), config.topology().memberships(), 1);
        this.control = JobControl.builder(config.scheduler().select())
                .maxArraySize(config.jobs().maxArraySize())
                .build();
        this.scheduler = new Scheduler(config.scheduler());
        for (Partition p : config.partitions()) {
            tiers.put(p.name(), p.scheduling().priorityTier());
        }
        for (Node n : config.nodes()) {
            apply(new StateRecord.NodeRegistered(
                    n.name(),
                    new NodeEndpoint(
                            n.endpoint().hostname(),
                            n.endpoint().addr(),
                            n.endpoint().port()),
                    new NodeEquipment(n.hardware(), List.of(), ""),
                    new DaemonReport(EPOCH, "replay", NodeFacts.NONE),
                    false,
                    EPOCH));
            state.heard(n.name(), EPOCH);
        }
    }

    private record Running(int jobId, long end, boolean timedOut) {}

    /** Runs the whole trace; call once per instance. */
    public ReplayResult run(List<SwfJob> trace) {
        List<SwfJob> arrivals = trace.stream()
                .filter(SwfJob::replayable)
                .sorted(Comparator.comparingLong(SwfJob::submitTime))
                .toList();
        PriorityQueue<Running> ends =
                new PriorityQueue<>(Comparator.comparingLong(Running::end).thenComparingInt(Running::jobId));
        Map<Integer, SwfJob> byId = new HashMap<>();
        Map<Integer, JobOutcome> started = new HashMap<>();
        List<JobOutcome> outcomes = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        long passes = 0;
        int pending = 0;
        int next = 0;
        while (next < arrivals.size() || !ends.isEmpty()) {
            long t = Long.MAX_VALUE;
            if (next < arrivals.size()) {
                t = EPOCH + arrivals.get(next).submitTime();
            }
            if (!ends.isEmpty()) {
                t = Math.min(t, ends.peek().end());
            }
            while (!ends.isEmpty() && ends.peek().end() == t) {
                Running r = ends.poll();
                finish(r, t);
                outcomes.add(started.remove(r.jobId()));
            }
            while (next < arrivals.size() && EPOCH + arrivals.get(next).submitTime() == t) {
                SwfJob job = arrivals.get(next++);
                try {
                    ControlResult<Integer> result = control.submit(state, request(job), t);
                    result.records().forEach(this::apply);
                    byId.put(result.response(), job);
                    pending++;
                } catch (SlurmException e) {
                    refused.add("job " + job.jobNumber() + ": " + e.getMessage());
                }
            }
            if (pending == 0) {
                continue;
            }
            passes++;
            SchedulePlan plan = scheduler.schedule(state.image(), t);
            Comparator<Job> order = order(plan);
            Map<String, Job> firstBlocked = firstBlocked(plan, order);
            for (SchedulePlan.Start s : plan.starts()) {
                Job job = state.job(s.jobId());
                Job blocked = firstBlocked.get(s.partition());
                boolean backfilled = blocked != null && order.compare(blocked, job) < 0;
                apply(new StateRecord.JobStarted(s.jobId(), s.allocation(), s.partition(), s.timeLimitMinutes(), t));
                pending--;
                SwfJob swf = byId.remove(s.jobId());
                long limit = limitSeconds(s.timeLimitMinutes());
                boolean timedOut = swf.runTime() > limit;
                long end = t + Math.min(swf.runTime(), limit);
                ends.add(new Running(s.jobId(), end, timedOut));
                started.put(
                        s.jobId(),
                        new JobOutcome(
                                swf.jobNumber(),
                                swf.submitTime(),
                                t - EPOCH,
                                end - EPOCH,
                                s.allocation().nodes(),
                                backfilled,
                                timedOut));
            }
            state.setQueueView(dev.sluice.ctld.control.PlanApplier.queueFacts(plan));
        }
        long totalCpus =
                config.nodes().stream().mapToLong(n -> n.hardware().cpus()).sum();
        return new ReplayResult(
                outcomes, trace.size(), trace.size() - arrivals.size(), refused, pending, passes, totalCpus);
    }

    private void finish(Running r, long t) {
        Job job = state.job(r.jobId());
        ControlResult<Void> ended = dev.sluice.ctld.control.BatchEnds.complete(
                state, job.allocation().batchHost(), r.jobId(), 0, r.timedOut() ? JobState.TIMEOUT : null, t);
        ended.records().forEach(this::apply);
        // As MinJobAge would, but at once: a finished job only slows every later pass down.
        apply(new StateRecord.JobsPurged(List.of(r.jobId()), t));
    }

    /** Per partition, the first job in scheduling order that the pass left waiting for resources. */
    private Map<String, Job> firstBlocked(SchedulePlan plan, Comparator<Job> order) {
        Map<String, Job> first = new HashMap<>();
        for (Map.Entry<Integer, JobReason> e : plan.pendingReasons().entrySet()) {
            if (e.getValue() != JobReason.RESOURCES && e.getValue() != JobReason.PRIORITY) {
                continue;
            }
            Job job = state.job(e.getKey());
            first.merge(job.terms().partition(), job, (a, b) -> order.compare(a, b) <= 0 ? a : b);
        }
        return first;
    }

    /** The scheduler's order: higher partition tier, then higher priority, then lower job id. */
    private Comparator<Job> order(SchedulePlan plan) {
        Map<Integer, Long> priorities = plan.priorities();
        return Comparator.comparingInt((Job j) -> -tiers.getOrDefault(j.terms().partition(), 0))
                .thenComparingLong(j -> -priorities.getOrDefault(j.id(), 0L))
                .thenComparingInt(Job::id);
    }

    private static long limitSeconds(long minutes) {
        return minutes >= JobRequest.TIME_NOT_SET ? Long.MAX_VALUE : minutes * 60;
    }

    /**
     * The job as {@code sbatch --ntasks=P --nodes=1-P [--time=ceil(T/60)] [--gpus=G]} would
     * submit it: P one-CPU tasks spread over as many nodes as they need, T the trace's requested
     * time (no {@code --time}, so the partition's limit, where the trace has none).
     */
    JobRequest request(SwfJob job) {
        int procs = (int) Math.min(Integer.MAX_VALUE, job.processors());
        long limit = job.requestedTime() > 0 ? Math.max(1, (job.requestedTime() + 59) / 60) : JobRequest.TIME_NOT_SET;
        long gpus = gpusPerCpu > 0 ? (long) Math.ceil(procs * gpusPerCpu - 1e-9) : 0;
        int uid = job.userId() > 0 ? (int) Math.min(Integer.MAX_VALUE, job.userId()) : 1000;
        return JobRequest.builder(new JobRequest.Owner(uid, uid, "user" + uid))
                .name("swf" + job.jobNumber())
                .script("#!/bin/sh\ntrue\n")
                .workDir("/tmp")
                .minNodes(1)
                .maxNodes(procs)
                .numTasks(procs)
                .cpusPerTask(1)
                .timeLimitMinutes(limit)
                .submitHost("login1")
                .gpuOptions(
                        gpus > 0
                                ? JobRequest.GpuOptions.parse(Long.toString(gpus), "", "", 0, 0, "")
                                : JobRequest.GpuOptions.NONE)
                .build();
    }

    private void apply(StateRecord record) {
        state.replay(++sequence, record);
    }
}
