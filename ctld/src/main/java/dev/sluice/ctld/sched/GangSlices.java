package dev.sluice.ctld.sched;

import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.Partition;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Slurm's gang scheduler ({@code PreemptMode=GANG}, gang_scheduling.html): in a partition that
 * lets up to N jobs hold each core ({@code OverSubscribe=FORCE:N}), the jobs given the same
 * cores take turns. Each pass asks who should run now; turns change only when slurmctld's
 * timeslicer turns, every {@code SchedulerTimeSlice} seconds from the controller's start
 * ({@link PreemptPolicy#lastTurn}): a job that has had its turn is then suspended and the jobs
 * that have waited longest run. Jobs of other partitions that hold cores are never suspended here: their cores
 * are simply not to be had (a job a higher tier preempted stays suspended until they are free).
 * In a partition that shares no cores, two of its jobs meet on the same cores only when one
 * preempted the other by suspension (preempt/qos, compat 212): they take turns likewise.
 *
 * <p>Pure: everything is read from the jobs (when each started, was last suspended or resumed),
 * so the turns survive a restart without records of their own.
 */
final class GangSlices {
    /**
     * What the gang scheduler does in this pass: running jobs to suspend, suspended ones to
     * resume, and every job it looks after (running or suspended, in a sharing partition).
     */
    record Turns(Set<Integer> suspends, Set<Integer> resumes, Set<Integer> members) {
        static final Turns NONE = new Turns(Set.of(), Set.of(), Set.of());

        /** Whether {@code job} holds its resources once this pass's turns are taken. */
        boolean holds(Job job) {
            return (job.holdsNodes() && !suspends.contains(job.id())) || resumes.contains(job.id());
        }
    }

    private GangSlices() {}

    static Turns decide(ClusterImage image, PreemptPolicy policy, long now) {
        if (!policy.gang()) {
            return Turns.NONE;
        }
        Map<String, Partition> sharing = new HashMap<>();
        for (Partition p : image.partitions()) {
            if (p.scheduling().sharesPerCore() > 1) {
                sharing.put(p.name(), p);
            }
        }
        Map<String, Set<Integer>> taken = new HashMap<>();
        List<Job> members = new ArrayList<>();
        List<Job> others = new ArrayList<>();
        // Every job this looks at holds resources (running, or suspended and lent).
        for (Job job : image.runningJobs()) {
            if (job.allocation() == null) {
                continue;
            }
            boolean turnTaker = job.status().state() == JobState.RUNNING || lent(job);
            if (turnTaker && sharing.containsKey(job.terms().partition())) {
                members.add(job);
            } else if (turnTaker) {
                others.add(job);
            } else if (job.holdsNodes()) {
                occupy(taken, job.allocation());
            }
        }
        // Jobs of a partition that shares no cores meet on the same ones only when a job
        // preempted one of its own partition's by suspension: those take turns too (compat 212).
        Set<Integer> meeting = sameCores(others);
        for (Job job : others) {
            if (meeting.contains(job.id())) {
                members.add(job);
            } else if (job.holdsNodes()) {
                occupy(taken, job.allocation());
            }
        }
        if (members.isEmpty()) {
            return Turns.NONE;
        }
        // Turns change only when slurmctld's timeslicer turns: every slice from the controller's
        // start (compat 225). Its last turn before this one (previous) tells who has had a turn.
        long previous = policy.lastTurn(now) - policy.timeSliceSeconds();
        Set<String> waited = new HashSet<>();
        for (Job job : members) {
            if (lent(job) && waitedAt(job, previous)) {
                waited.add(job.terms().partition());
            }
        }
        members.sort(Comparator.comparingInt((Job j) -> turnOrder(j, previous, waited))
                .thenComparingLong(GangSlices::since)
                .thenComparingInt(Job::id));
        Set<Integer> suspends = new LinkedHashSet<>();
        Set<Integer> resumes = new LinkedHashSet<>();
        Set<Integer> ids = new HashSet<>();
        for (Job job : members) {
            ids.add(job.id());
            boolean runs = free(taken, job.allocation());
            if (runs) {
                occupy(taken, job.allocation());
            }
            if (runs && lent(job)) {
                resumes.add(job.id());
            } else if (!runs && job.status().state() == JobState.RUNNING) {
                suspends.add(job.id());
            }
        }
        return new Turns(Set.copyOf(suspends), Set.copyOf(resumes), Set.copyOf(ids));
    }

    /** The jobs that hold some core together with another job of their partition. */
    private static Set<Integer> sameCores(List<Job> jobs) {
        Map<String, Map<Integer, Integer>> holder = new HashMap<>();
        Set<Integer> meeting = new HashSet<>();
        for (Job job : jobs) {
            for (Allocation.NodeShare share : job.allocation().nodes()) {
                Map<Integer, Integer> cores =
                        holder.computeIfAbsent(job.terms().partition() + "\0" + share.node(), k -> new HashMap<>());
                for (int core : share.cores()) {
                    Integer before = cores.putIfAbsent(core, job.id());
                    if (before != null && before != job.id()) {
                        meeting.add(before);
                        meeting.add(job.id());
                    }
                }
            }
        }
        return meeting;
    }

    /** Suspended to let another job have its cores (preemption or a gang's turn). */
    static boolean lent(Job job) {
        return job.status().state() == JobState.SUSPENDED && job.suspension().byPreemption();
    }

    /**
     * Who comes first for the cores: a running job whose turn is not over, then the suspended
     * ones, then running jobs whose turn is over. As in Slurm's timeslicer, a job's turn is over
     * once it ran through a turn of the clock ({@code previous}) at which a job of its partition
     * waited: a job that came to free cores or ran alone has had no turn yet and keeps its cores at
     * the next (compat 225: a newcomer to a lone job's cores runs more than a slice later).
     */
    private static int turnOrder(Job job, long previous, Set<String> waited) {
        if (lent(job)) {
            return 1;
        }
        boolean hadTurn =
                since(job) <= previous + TURN_LAG && waited.contains(job.terms().partition());
        return hadTurn ? 2 : 0;
    }

    /**
     * How late after a turn of the clock the pass that takes it may run (the controller's passes
     * come about once a second): a job suspended or resumed that much after a turn was so at it.
     */
    static final long TURN_LAG = 1;

    /**
     * Whether a suspended job was already waiting at the turn {@code previous}: one suspended by
     * a turn (or a preemption) by then, or one that came to the cores before it (a newcomer,
     * suspended as it started, counts from its start, strictly before the turn).
     */
    private static boolean waitedAt(Job job, long previous) {
        boolean newcomer = job.suspension().time() == job.run().startTime()
                && job.suspension().preSuspendSeconds() == 0;
        return newcomer ? job.run().startTime() < previous : since(job) <= previous + TURN_LAG;
    }

    /** When the job's current turn (running or waiting) began. */
    static long since(Job job) {
        return job.suspension().time() > 0 ? job.suspension().time() : job.run().startTime();
    }

    /** Cores held on each node; -1 stands for the whole node (an allocation without cores). */
    static void occupy(Map<String, Set<Integer>> taken, Allocation allocation) {
        for (Allocation.NodeShare share : allocation.nodes()) {
            Set<Integer> cores = taken.computeIfAbsent(share.node(), k -> new HashSet<>());
            if (share.cores().isEmpty()) {
                cores.add(-1);
            } else {
                cores.addAll(share.cores());
            }
        }
    }

    static boolean free(Map<String, Set<Integer>> taken, Allocation allocation) {
        for (Allocation.NodeShare share : allocation.nodes()) {
            Set<Integer> cores = taken.get(share.node());
            if (cores == null || cores.isEmpty()) {
                continue;
            }
            if (cores.contains(-1) || share.cores().isEmpty()) {
                return false;
            }
            for (int c : share.cores()) {
                if (cores.contains(c)) {
                    return false;
                }
            }
        }
        return true;
    }
}
