package dev.sluice.ctld.sched;

import dev.sluice.common.error.SlurmException;
import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.PreemptMode;
import dev.sluice.ctld.limits.AccountingPolicy;
import dev.sluice.ctld.limits.Enforcement;
import dev.sluice.ctld.limits.LimitGate;
import dev.sluice.ctld.limits.LimitUsage;
import dev.sluice.ctld.limits.UsageThreshold;
import dev.sluice.ctld.select.NodeCapacity;
import dev.sluice.ctld.select.PlacementRequest;
import dev.sluice.ctld.select.PlacementResult;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobTimes;
import dev.sluice.ctld.state.NodeView;
import dev.sluice.ctld.state.Partition;
import dev.sluice.ctld.state.Reservation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * The mutable working set of one scheduling pass ({@link Scheduler#schedule}): what the pass has
 * started, reserved, preempted and why the rest wait, built job by job in the queue's order.
 * Lives for one pass on the controller thread.
 */
final class SchedulingPass {
    final ClusterImage image;
    final long now;
    final Map<Integer, Long> priorities;
    final AvailabilityTimeline timeline;
    final List<SchedulePlan.Start> starts = new ArrayList<>();
    final List<Integer> cancels = new ArrayList<>();
    final List<Integer> pastDeadline = new ArrayList<>();
    final Map<Integer, JobReason> reasons = new HashMap<>();
    final Map<Integer, String> details = new HashMap<>();
    final Set<String> blockedPartitions = new HashSet<>();
    final Map<Integer, Integer> runningTasks = new HashMap<>();
    final PlacementMemo memo = new PlacementMemo();
    final Enforcement enforce;
    final AccountingPolicy policy;
    final LimitUsage usage;
    final LicenseUse licenses;
    final ReservationFence fence;
    final Preemption preemption;
    final List<SchedulePlan.Preempt> preempts = new ArrayList<>();
    final List<Integer> resumes = new ArrayList<>();
    // Who takes the next turn on cores shared by a gang (PreemptMode=GANG).
    final GangSlices.Turns turns;
    // Nodes a preemptor waits on for its victims to go: no later job of the pass takes them.
    final Set<String> preempting = new HashSet<>();
    final BackfillSearch backfill;
    private final SchedulerConfig config;
    // Each job's fair-share factor, for its QOS's UsageThreshold.
    private final ToDoubleFunction<Job> fairShare;

    SchedulingPass(
            SchedulerConfig config,
            ClusterImage image,
            long now,
            Map<Integer, Long> priorities,
            Enforcement enforce,
            AccountingPolicy policy,
            ToDoubleFunction<Job> fairShare) {
        this.config = config;
        this.fairShare = fairShare;
        this.enforce = enforce;
        this.policy = policy;
        this.usage = enforce.any() ? LimitUsage.of(policy, image.jobs()) : null;
        this.licenses = LicenseUse.of(config.select().licenses(), image.runningJobs());
        this.fence = ReservationFence.of(image, now);
        this.preemption = new Preemption(config.preempt(), image, priorities, policy, now);
        this.image = image;
        this.now = now;
        this.priorities = priorities;
        Map<String, NodeCapacity> capacity = new LinkedHashMap<>();
        for (NodeView view : image.nodes()) {
            capacity.put(view.name(), Scheduler.capacityOf(view));
        }
        timeline = new AvailabilityTimeline(capacity);
        backfill = new BackfillSearch(config, timeline, fence, memo, now);
        turns = GangSlices.decide(image, config.preempt(), now);
        List<Job> lent = new ArrayList<>();
        for (Job job : image.runningJobs()) {
            if (job.isRunning()) {
                if (turns.resumes().contains(job.id())) {
                    resumes.add(job.id());
                    timeline.started(job.allocation(), SuspendedJobs.endAfterResume(job, now));
                } else if (turns.holds(job)) {
                    timeline.running(
                            job.allocation(),
                            Math.max(now + 1, Scheduler.endOf(job.run().startTime(), job)));
                } else if (turns.members().contains(job.id())) {
                    // Waiting for its turn: its cores are its gang's, no other job's.
                    timeline.reserve(job.allocation(), now, SuspendedJobs.KEPT_UNTIL);
                } else {
                    lent.add(job);
                }
                if (job.array().isArray()) {
                    runningTasks.merge(job.array().arrayJobId(), 1, Integer::sum);
                }
            }
        }
        lent.sort(Scheduler.order(image, priorities));
        SuspendedJobs.resumeOrKeep(lent, timeline, now, resumes);
        for (int id : turns.suspends()) {
            preempts.add(new SchedulePlan.Preempt(id, PreemptMode.SUSPEND, 0, 0, 0));
            preemption.exclude(id);
        }
    }

    void consider(Job job) {
        Partition partition = image.partition(job.terms().partition()).orElse(null);
        List<Integer> tasks = job.array().isArray() && job.array().taskId() < 0
                ? job.array().pendingTasks().ids()
                : List.of(job.array().taskId());
        // Under aftercorr each task waits for its own partner: one still waiting (or never to
        // run) does not hold back the tasks after it, whose partners may have ended well (real
        // Slurm 22.05 ran tasks 0 and 2 while task 1's partner had failed, compat 295). The
        // record keeps the first waiting task's reason.
        boolean perTask = job.request().sequencing().dependency().correlates();
        JobReason firstWait = null;
        for (int task : tasks) {
            if (tryStart(job, partition, task)) {
                continue;
            }
            JobReason reason = reasons.get(job.id());
            boolean dependencyWait = reason == JobReason.DEPENDENCY || reason == JobReason.DEPENDENCY_NEVER_SATISFIED;
            if (!perTask || cancels.contains(job.id()) || !dependencyWait) {
                break;
            }
            if (firstWait == null) {
                firstWait = reason;
            }
        }
        if (firstWait != null) {
            reasons.put(job.id(), firstWait);
        }
    }

    /** @return true when the task started and the next task of the same record may be tried */
    private boolean tryStart(Job job, Partition partition, int task) {
        JobReason reason = Gates.reason(job, partition, task, image, now, runningTasks);
        if (reason != null) {
            if (reason == JobReason.DEPENDENCY_NEVER_SATISFIED
                    && job.request().sequencing().killOnInvalidDep()) {
                cancels.add(job.id());
            } else {
                reasons.put(job.id(), reason);
            }
            return false;
        }
        // Slurm 22.05 tests the deadline of each job its pass considers, before it tries to place
        // it: one whose time limit could no longer end in time ends DEADLINE (compat 304, 305).
        if (JobTimes.missesDeadline(job, now)) {
            pastDeadline.add(job.id());
            return false;
        }
        JobReason outside = fence.gate(job, now);
        if (outside != null) {
            reasons.put(job.id(), outside);
            return false;
        }
        JobReason threshold = UsageThreshold.reason(policy, job, fairShare.applyAsDouble(job));
        if (threshold != null) {
            reasons.put(job.id(), threshold);
            return false;
        }
        if (usage != null) {
            JobReason limit = LimitGate.reason(enforce, policy, usage, job);
            if (limit == null) {
                limit = LimitGate.perNode(enforce, policy, job, config.select().memoryConsumable());
            }
            if (limit != null) {
                reasons.put(job.id(), limit);
                return false;
            }
        }
        // Slurm 22.05's backfill plans no licenses ahead: a job short of them waits without
        // holding anything back, and a later job may take what frees up first.
        // Reservations keep their licenses from jobs outside them whose time limit reaches into
        // their window (compat 284, 286).
        long until = Scheduler.endOf(now, job);
        if (!licenses.fits(
                job.request().licenses(),
                fence.isEmpty() ? name -> 0 : name -> fence.licensesKept(job, name, now, until))) {
            reasons.put(job.id(), JobReason.LICENSES);
            return false;
        }
        if (!config.backfill() && blockedPartitions.contains(partition.name())) {
            reasons.put(job.id(), JobReason.PRIORITY);
            return false;
        }
        if (blockedPartitions.contains(blockKey(job, partition))
                && !job.request().reservation().isEmpty()) {
            // Slurm 22.05's main scheduler tries no more jobs of a reservation one of whose jobs
            // could not start (failed_resv): they wait with Priority (compat 201).
            reasons.put(job.id(), JobReason.PRIORITY);
            return false;
        }
        PlacementRequest request;
        try {
            request = Scheduler.placementRequest(job.request(), partition, config.select());
        } catch (SlurmException e) {
            // The configuration changed under an accepted job (e.g. its GRES went away).
            reasons.put(job.id(), JobReason.BAD_CONSTRAINTS);
            return false;
        }
        long end = Scheduler.endOf(now, job);
        Reservation magnet = fence.isEmpty() ? null : fence.magnet(job, now);
        if (magnet != null && startInMagnet(job, partition, task, request, magnet, end)) {
            return true;
        }
        PlacementRequest asked = request;
        ReservationFence.Closed closure = fence.isEmpty() ? ReservationFence.Closed.NONE : fence.closure(job, now, end);
        Set<String> closed = closure.nodes();
        boolean fenced = !java.util.Collections.disjoint(request.requiredNodes(), closed);
        request = ReservationFence.without(request, closed);
        if (!preempting.isEmpty()) {
            request = ReservationFence.without(request, preempting);
        }
        Map<String, NodeCapacity> view = timeline.capacityFor(now, end);
        Map<String, NodeCapacity> carved = fence.isEmpty() ? view : fence.carve(job, view, now, end);
        PlacementResult result = fenced
                ? new PlacementResult.Pending(JobReason.REQ_NODE_NOT_AVAIL)
                : carved != view
                        ? ReservationFence.place(partition, carved, request)
                        : memo.placeNow(partition, view, timeline.version(), request, end - now);
        if (result instanceof PlacementResult.Rejected
                && !closed.isEmpty()
                && !(memo.placeNow(partition, timeline.capacityFor(now, end), timeline.version(), asked, end - now)
                        instanceof PlacementResult.Rejected)) {
            // Impossible only without the reserved nodes: it waits for them.
            result = new PlacementResult.Pending(JobReason.RESOURCES);
        }
        switch (result) {
            case PlacementResult.Placed placed -> {
                JobReason nodeCap = usage == null
                        ? null
                        : LimitGate.placed(
                                enforce, policy, usage, job, placed.allocation().nodeNames());
                if (nodeCap != null) {
                    reasons.put(job.id(), nodeCap);
                    return false;
                }
                start(job, partition, task, placed.allocation(), end);
                return true;
            }
            case PlacementResult.Rejected rejected -> {
                reasons.put(job.id(), JobReason.BAD_CONSTRAINTS);
                return false;
            }
            case PlacementResult.Pending waiting -> {
                if (waiting.reason() == JobReason.RESOURCES
                        && !fenced
                        && config.preempt().gang()) {
                    var shared = GangShare.plan(
                            image, job, partition, request, timeline.capacityFor(now, end), turns, preemption.chosen());
                    if (shared.isPresent()) {
                        shared.get().meets().forEach(preemption::exclude);
                        start(
                                job,
                                partition,
                                task,
                                shared.get().allocation(),
                                end,
                                shared.get().waits());
                        return true;
                    }
                }
                if (waiting.reason() == JobReason.RESOURCES && !fenced) {
                    Boolean started = preempt(job, partition, task, request, end);
                    if (started != null) {
                        return started;
                    }
                }
                if (!fenced && fence.spillsOver(job, image, now, asked)) {
                    reasons.put(job.id(), JobReason.NONE);
                    return false;
                }
                boolean first = blockedPartitions.add(blockKey(job, partition));
                JobReason why =
                        waiting.reason() == JobReason.RESOURCES && !first ? JobReason.PRIORITY : waiting.reason();
                if (!closed.isEmpty()
                        && (fenced
                                || !closure.onlyOwnConfines()
                                        && memo.placeNow(
                                                        partition,
                                                        timeline.capacityFor(now, end),
                                                        timeline.version(),
                                                        asked,
                                                        end - now)
                                                instanceof PlacementResult.Placed)) {
                    why = fence.reason(fenced, magnet != null, closed, now);
                }
                if (closure.ownNodesTaken()) {
                    why = JobReason.RESERVED_FOR_MAINTENANCE;
                }
                reasons.put(job.id(), why);
                // ReasonDetail costs a look at every node of the partition per view: it is
                // worked out for the jobs backfill plans for (bf_max_job_test of them), not
                // for every job of a queue 100,000 deep.
                boolean planned = !config.backfill() || backfill.held() < config.reservationDepth();
                if (planned) {
                    details.put(
                            job.id(),
                            memo.explain(partition, timeline.capacityFor(now, end), timeline.version(), request));
                }
                if (config.backfill() && backfill.held() < config.reservationDepth()) {
                    backfill.reserve(job, partition, asked);
                }
                return false;
            }
        }
    }

    /**
     * What a job that cannot start blocks for the jobs after it: its partition, or, for a job in
     * a reservation, that reservation only (Slurm 22.05's failed_resv: the partition's other jobs
     * are still tried, and wait with Resources, not Priority; compat 292). Partition names hold
     * no blank.
     */
    private static String blockKey(Job job, Partition partition) {
        String reservation = job.request().reservation();
        return reservation.isEmpty() ? partition.name() : "reservation " + reservation;
    }

    /**
     * A job that names no reservation but that an active MAGNETIC one lets in starts there when
     * it fits on its nodes alone; otherwise it is tried outside like any other (compat 202).
     */
    private boolean startInMagnet(
            Job job, Partition partition, int task, PlacementRequest request, Reservation magnet, long end) {
        Set<String> closed = fence.closure(job, magnet, now, end).nodes();
        if (!java.util.Collections.disjoint(request.requiredNodes(), closed)) {
            return false;
        }
        PlacementRequest inside = ReservationFence.without(request, closed);
        if (!preempting.isEmpty()) {
            inside = ReservationFence.without(inside, preempting);
        }
        Map<String, NodeCapacity> view = fence.carve(magnet.name(), timeline.capacityFor(now, end), now, end);
        if (ReservationFence.place(partition, view, inside) instanceof PlacementResult.Placed placed) {
            start(job, partition, task, placed.allocation(), end);
            return true;
        }
        return false;
    }

    private void start(Job job, Partition partition, int task, Allocation allocation, long end) {
        start(job, partition, task, allocation, end, false);
    }

    /** {@code suspended}: it starts waiting for its gang turn on cores a running job holds. */
    private void start(Job job, Partition partition, int task, Allocation allocation, long end, boolean suspended) {
        starts.add(new SchedulePlan.Start(
                job.id(), task, allocation, partition.name(), job.terms().timeLimitMinutes(), suspended));
        timeline.started(allocation, end);
        licenses.take(job.request().licenses());
        if (usage != null) {
            usage.started(job, dev.sluice.ctld.limits.JobTres.of(allocation), allocation.nodeNames());
        }
        if (task >= 0) {
            runningTasks.merge(job.array().arrayJobId(), 1, Integer::sum);
        }
    }

    /**
     * Preempts for a job that does not fit now, if it outranks jobs whose going would let it
     * start ({@link Preemption}). When every victim is suspended it starts at once on their
     * resources; else it waits for them, its nodes kept from the rest of the pass, and
     * starts in a later pass once they have let go.
     *
     * @return null when it preempts nothing, else whether it started
     */
    private Boolean preempt(Job job, Partition partition, int task, PlacementRequest request, long end) {
        var plan = preemption.plan(job, partition, request, timeline.capacityFor(now, end));
        if (plan.isEmpty()) {
            return null;
        }
        boolean waits = false;
        for (Preemption.Victim v : plan.get().victims()) {
            if (v.runsOn()) {
                // Its cores are shared with the preemptor. Of another partition it runs on beside
                // it; of the preemptor's own, the two take gang turns, the preemptor waiting for
                // the first (Slurm 22.05, compat 166, 212).
                waits |= image.job(v.jobId())
                        .map(j -> j.terms().partition().equals(partition.name()))
                        .orElse(false);
                continue;
            }
            preempts.add(new SchedulePlan.Preempt(
                    v.jobId(), v.mode(), job.id(), config.preempt().requeueHoldBackSeconds(), v.graceSeconds()));
        }
        if (plan.get().startsNow()) {
            start(job, partition, task, plan.get().allocation(), end, waits);
            return true;
        }
        preempting.addAll(plan.get().allocation().nodeNames());
        blockedPartitions.add(partition.name());
        reasons.put(job.id(), JobReason.RESOURCES);
        return false;
    }
}
