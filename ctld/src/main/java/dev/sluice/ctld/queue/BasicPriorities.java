package dev.sluice.ctld.queue;

import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.Job;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
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
    private final ClusterImage image;

    BasicPriorities(ClusterImage image) {
        this.image = image;
    }

    static long of(Job job) {
        if (Priorities.isHeld(job)) {
            return 0L;
        }
        // A running or finished job keeps the priority it started with, as Slurm shows it (and
        // squeue orders by it: of two cancelled jobs the older first).
        return job.adminPriority() > 0 ? job.adminPriority() : Math.max(1, Priorities.BASIC_TOP - job.id());
    }

    @Override
    public Long get(Object key) {
        return key instanceof Integer id
                ? image.job(id).map(BasicPriorities::of).orElse(null)
                : null;
    }

    @Override
    public boolean containsKey(Object key) {
        return key instanceof Integer id && image.job(id).isPresent();
    }

    @Override
    public Long getOrDefault(Object key, Long otherwise) {
        Long v = get(key);
        return v != null ? v : otherwise;
    }

    @Override
    public int size() {
        return image.jobs().size();
    }

    @Override
    public Set<Map.Entry<Integer, Long>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Map.Entry<Integer, Long>> iterator() {
                Iterator<Job> jobs = image.jobs().iterator();
                return new Iterator<>() {
                    @Override
                    public boolean hasNext() {
                        return jobs.hasNext();
                    }

                    @Override
                    public Map.Entry<Integer, Long> next() {
                        Job job = jobs.next();
                        return new AbstractMap.SimpleImmutableEntry<>(job.id(), of(job));
                    }
                };
            }

            @Override
            public int size() {
                return image.jobs().size();
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
