package dev.sluice.ctld.sched;

import dev.sluice.common.slurm.PreemptMode;
import dev.sluice.ctld.limits.AccountingPolicy;
import dev.sluice.ctld.select.Allocator;
import dev.sluice.ctld.select.NodeCapacity;
import dev.sluice.ctld.select.PlacementRequest;
import dev.sluice.ctld.select.PlacementResult;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.Partition;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Chooses the jobs a pending job preempts within one scheduling pass (Slurm's select plugin with
 * preemptee candidates): the running jobs it outranks ({@link PreemptPolicy}), lowest first, are
 * taken away one at a time until the job fits; those it would not then use, and any it fits
 * without, are given back. So a job preempts only when it would then start, and as few and as
 * low jobs as the greedy order finds. A job preempted once in a pass is not chosen again.
 *
 * <p>A victim whose mode is SUSPEND gives the preemptor its cores, CPUs and devices but not its
 * memory: a suspended job stays in memory (preempt.html), so the preemptor must fit beside it.
 * When every victim is suspended the preemptor starts at once ({@link Plan#startsNow}).
 *
 * <p>While any job is still being killed (COMPLETING, its resources not yet back) or is in its
 * GraceTime, nothing more is preempted: the last preemption's preemptor is waiting for those resources, and taking
 * further jobs for it would preempt twice for one start.
 */
final class Preemption {
    private final PreemptPolicy policy;
    private final ClusterImage image;
    private final Map<Integer, Long> priorities;
    private final AccountingPolicy accounting;
    private final long now;
    private final boolean settling;
    private final Set<Integer> chosen = new HashSet<>();

    /**
     * A job to preempt, what preemption does to it, and its GraceTime. {@code runsOn}: a SUSPEND
     * victim of the preemptor's PriorityTier, which Slurm's gang scheduler does not suspend for
     * it: of another partition the two run on side by side (compat 166); of the preemptor's own,
     * they take turns, the victim first ({@link GangSlices}, compat 212, 213).
     */
    record Victim(int jobId, PreemptMode mode, long graceSeconds, boolean runsOn) {}

    /** The victims and where the preemptor will run once they are gone. */
    record Plan(List<Victim> victims, Allocation allocation) {
        /** Every victim is suspended, not ended: the preemptor starts now, on their resources. */
        boolean startsNow() {
            return victims.stream().allMatch(v -> v.mode() == PreemptMode.SUSPEND);
        }
    }

    Preemption(
            PreemptPolicy policy,
            ClusterImage image,
            Map<Integer, Long> priorities,
            AccountingPolicy accounting,
            long now) {
        this.policy = policy;
        this.image = image;
        this.priorities = priorities;
        this.accounting = accounting;
        this.now = now;
        this.settling = !image.completing().isEmpty() || !image.preempting().isEmpty();
    }

    /**
     * The jobs {@code job} preempts to run on {@code partition}, given what is free for it now
     * ({@code capacity}), or empty when it preempts none: preemption is off, it outranks no
     * running job, or it would not fit even with every job it outranks gone.
     */
    Optional<Plan> plan(Job job, Partition partition, PlacementRequest request, Map<String, NodeCapacity> capacity) {
        if (!policy.enabled() || settling) {
            return Optional.empty();
        }
        Set<String> members = new HashSet<>(partition.nodes());
        List<Job> candidates = new ArrayList<>();
        Map<Integer, PreemptMode> modes = new HashMap<>();
        Set<Integer> beside = new HashSet<>();
        for (Job other : image.runningJobs()) {
            if (other.status().state() != dev.sluice.common.slurm.JobState.RUNNING
                    || other.allocation() == null
                    || chosen.contains(other.id())
                    || Collections.disjoint(members, other.allocation().nodeNames())) {
                continue;
            }
            Partition vp = image.partition(other.terms().partition()).orElse(null);
            PreemptMode mode = policy.modeOf(other, vp, accounting);
            // Slurm 22.05 suspends a job for another only where both partitions force sharing.
            boolean shares = partition.scheduling().forcesOverSubscribe()
                    && vp != null
                    && vp.scheduling().forcesOverSubscribe();
            if (policy.outranks(job, partition, other, vp, accounting)
                    && !policy.exempt(other, now, accounting)
                    && mode != PreemptMode.OFF
                    && (mode != PreemptMode.SUSPEND || shares)) {
                candidates.add(other);
                modes.put(other.id(), mode);
                if (mode == PreemptMode.SUSPEND
                        && policy.gang()
                        && vp.scheduling().priorityTier()
                                == partition.scheduling().priorityTier()) {
                    beside.add(other.id());
                }
            }
        }
        if (candidates.isEmpty()) {
            return Optional.empty();
        }
        candidates.sort(lowestFirst());
        List<Job> taken = new ArrayList<>();
        Allocation placed = null;
        for (Job c : candidates) {
            taken.add(c);
            placed = fit(partition, request, capacity, taken, modes, beside);
            if (placed != null) {
                break;
            }
        }
        if (placed == null) {
            return Optional.empty();
        }
        Set<String> used = new HashSet<>(placed.nodeNames());
        taken.removeIf(v -> Collections.disjoint(used, v.allocation().nodeNames()));
        // Give back, highest first, every victim the job fits without.
        for (int i = taken.size() - 1; i >= 0; i--) {
            List<Job> fewer = new ArrayList<>(taken);
            fewer.remove(i);
            if (!fewer.isEmpty() && fit(partition, request, capacity, fewer, modes, beside) != null) {
                taken = fewer;
            }
        }
        placed = fit(partition, request, capacity, taken, modes, beside);
        if (placed == null || taken.isEmpty()) {
            return Optional.empty();
        }
        List<Victim> victims = new ArrayList<>();
        for (Job v : taken) {
            chosen.add(v.id());
            Partition vp = image.partition(v.terms().partition()).orElse(null);
            PreemptMode mode = modes.get(v.id());
            victims.add(new Victim(v.id(), mode, policy.graceOf(v, vp, mode, accounting), beside.contains(v.id())));
        }
        return Optional.of(new Plan(victims, placed));
    }

    /** {@code id} is suspended or preempted by this pass already: not a candidate again. */
    void exclude(int id) {
        chosen.add(id);
    }

    /** The jobs this pass already suspends or preempts. */
    Set<Integer> chosen() {
        return Set.copyOf(chosen);
    }

    /** Lower partition tier, then lower priority, then the one that started last (least lost). */
    private Comparator<Job> lowestFirst() {
        Map<String, Integer> tiers = new HashMap<>();
        image.partitions().forEach(p -> tiers.put(p.name(), p.scheduling().priorityTier()));
        return Comparator.comparingInt((Job j) -> tiers.getOrDefault(j.terms().partition(), 0))
                .thenComparingLong(j -> priorities.getOrDefault(j.id(), 0L))
                .thenComparing(
                        Comparator.comparingLong((Job j) -> j.run().startTime()).reversed())
                .thenComparing(Comparator.comparingInt(Job::id).reversed());
    }

    /**
     * Where the job fits on {@code capacity} with {@code gone}'s shares given back (a suspended
     * one's without its memory, one left running beside it without its devices too), or null.
     */
    private static Allocation fit(
            Partition partition,
            PlacementRequest request,
            Map<String, NodeCapacity> capacity,
            List<Job> gone,
            Map<Integer, PreemptMode> modes,
            Set<Integer> beside) {
        Map<String, NodeCapacity> freed = new HashMap<>();
        for (Job v : gone) {
            boolean suspended = modes.get(v.id()) == PreemptMode.SUSPEND;
            // One left running beside its preemptor shares its cores, not its devices.
            List<dev.sluice.ctld.gres.GresGrant> devices = beside.contains(v.id()) ? List.of() : null;
            for (Allocation.NodeShare held : v.allocation().nodes()) {
                Allocation.NodeShare share = suspended
                        ? new Allocation.NodeShare(
                                held.node(),
                                held.cpus(),
                                0,
                                held.tasks(),
                                devices == null ? held.gres() : devices,
                                held.cores())
                        : held;
                NodeCapacity base = freed.getOrDefault(share.node(), capacity.get(share.node()));
                if (base != null) {
                    freed.put(share.node(), base.plus(share));
                }
            }
        }
        List<NodeCapacity> nodes = new ArrayList<>();
        for (String n : partition.nodes()) {
            NodeCapacity c = freed.getOrDefault(n, capacity.get(n));
            if (c != null) {
                nodes.add(c);
            }
        }
        return Allocator.place(nodes, request) instanceof PlacementResult.Placed p ? p.allocation() : null;
    }
}
