package dev.sluice.ctld.queue;

import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.Job;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code priority/basic}'s priorities of every job of an image, worked out when asked. Each is a
 * function of the job alone (its id, an administrator's priority, a hold), so nothing is worth
 * computing ahead: a map of every job, finished ones kept for MinJobAge included, cost each
 * scheduling pass a map of the whole job table, and its copy for the queue view another. The map
 * holds exactly the image's jobs and cannot change, since an image cannot.
 */
public final class BasicPriorities extends AbstractMap<Integer, Long> {
    // The image's job table, not the image: an image keeps the priorities of the pass before
    // it, so holding images would keep every image ever published.
    private final List<Job> jobs;
    private final Map<Integer, Job> byId;

    BasicPriorities(ClusterImage image) {
        this.jobs = image.jobs();
        this.byId = image.jobsById();
    }

    /**
     * {@code priorities} as an immutable map: itself when it is one of these (a copy would work
     * out the priority of every job in the table, finished ones included, wherever a pass's
     * answer is kept: the plan, the queue view, each image), else {@link Map#copyOf}.
     */
    public static Map<Integer, Long> immutable(Map<Integer, Long> priorities) {
        return priorities instanceof BasicPriorities ? priorities : Map.copyOf(priorities);
    }

    /**
     * A pass's priorities ({@code priority/multifactor}: its pending jobs' only) with those the
     * pass before gave jobs that have started since and still run: Slurm keeps a job's priority
     * when it starts (squeue shows it on a running job, observed in scenarios 226 and 229).
     * priority/basic's priorities cover every job already.
     */
    public static Map<Integer, Long> keepingStarted(
            Map<Integer, Long> pass, Map<Integer, Long> before, java.util.function.IntPredicate running) {
        if (pass instanceof BasicPriorities || before instanceof BasicPriorities || before.isEmpty()) {
            return pass;
        }
        Map<Integer, Long> out = null;
        for (Map.Entry<Integer, Long> e : before.entrySet()) {
            if (!pass.containsKey(e.getKey()) && running.test(e.getKey())) {
                if (out == null) {
                    out = new java.util.HashMap<>(pass);
                }
                out.put(e.getKey(), e.getValue());
            }
        }
        return out == null ? pass : out;
    }

    static long of(Job job) {
        if (Priorities.isHeld(job)) {
            return 0L;
        }
        // A running or finished job keeps the priority it started with, as Slurm shows it (and
        // squeue orders by it: of two cancelled jobs the older first).
        return job.terms().adminPriority() > 0
                ? job.terms().adminPriority()
                // An array's tasks share the array's priority, as the records Slurm splits off
                // it copy it: of pending tasks split off an aftercorr array, none goes first by
                // priority (compat 295).
                // Less its nice, as priority/basic sets it (scontrol top moves jobs by it: compat 306).
                : Math.max(
                        1,
                        Priorities.BASIC_TOP
                                - (job.array().isArray() ? job.array().arrayJobId() : job.id())
                                - job.request().nice());
    }

    @Override
    public Long get(Object key) {
        if (key instanceof Integer id) {
            Job job = byId.get(id);
            return job != null ? of(job) : null;
        }
        return null;
    }

    @Override
    public boolean containsKey(Object key) {
        return key instanceof Integer id && byId.containsKey(id);
    }

    @Override
    public Long getOrDefault(Object key, Long otherwise) {
        Long v = get(key);
        return v != null ? v : otherwise;
    }

    @Override
    public int size() {
        return jobs.size();
    }

    @Override
    public Set<Map.Entry<Integer, Long>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Map.Entry<Integer, Long>> iterator() {
                Iterator<Job> each = jobs.iterator();
                return new Iterator<>() {
                    @Override
                    public boolean hasNext() {
                        return each.hasNext();
                    }

                    @Override
                    public Map.Entry<Integer, Long> next() {
                        Job job = each.next();
                        return new AbstractMap.SimpleImmutableEntry<>(job.id(), of(job));
                    }
                };
            }

            @Override
            public int size() {
                return jobs.size();
            }
        };
    }

    // Immutable, as Map.copyOf's maps are: whoever keeps one need not copy it.
    @Override
    public Long put(Integer key, Long value) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Long remove(Object key) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void clear() {
        throw new UnsupportedOperationException();
    }
}
