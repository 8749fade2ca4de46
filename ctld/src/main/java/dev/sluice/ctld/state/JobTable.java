package dev.sluice.ctld.state;

import java.util.AbstractList;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.RandomAccess;
import java.util.Set;
import java.util.TreeMap;

/**
 * The job table, in job id order, kept as immutable chunks of up to {@value #CHUNK} ids each.
 * A change replaces only its chunk, so {@link #freeze} shares every chunk that did not change
 * with the previous image: publishing an image after a batch costs the chunks that batch
 * touched plus one pointer per chunk, not a copy of a queue that may hold 100,000 jobs.
 *
 * <p>The jobs holding resources ({@link Job#isRunning}) and the pending jobs are each kept again
 * in a table of their own, {@link Frozen#running} and {@link Frozen#pending}: each scheduling
 * pass reads both, and at thousands of jobs a second the finished jobs kept for {@code
 * MinJobAge} outnumber them by far.
 *
 * <p>Not thread-safe: owned by the controller thread like {@link ClusterState}. What
 * {@link #freeze} returns is immutable and may be read from any thread.
 */
final class JobTable {
    private static final int SHIFT = 9;
    static final int CHUNK = 1 << SHIFT;
    private static final Job[] NONE = new Job[0];

    // The running and the pending jobs' own tables; null in those tables themselves.
    private final JobTable running;
    private final JobTable pending;

    JobTable() {
        this.running = new JobTable(null, null);
        this.pending = new JobTable(null, null);
    }

    private JobTable(JobTable running, JobTable pending) {
        this.running = running;
        this.pending = pending;
    }

    // Each chunk: the jobs whose id >>> SHIFT is its key, sorted by id, never modified once
    // stored (a change stores a new array).
    private final TreeMap<Integer, Job[]> chunks = new TreeMap<>();
    private int size;
    private Frozen frozen = Frozen.EMPTY;
    private boolean changed;

    Job get(int id) {
        Job[] chunk = chunks.get(id >>> SHIFT);
        if (chunk == null) {
            return null;
        }
        int at = indexOf(chunk, id);
        return at >= 0 ? chunk[at] : null;
    }

    /** Adds the job, or replaces the one with its id. */
    void put(Job job) {
        int id = job.id();
        int key = id >>> SHIFT;
        Job[] chunk = chunks.getOrDefault(key, NONE);
        int at = indexOf(chunk, id);
        Job[] next;
        if (at >= 0) {
            next = chunk.clone();
            next[at] = job;
        } else {
            int insert = -at - 1;
            next = new Job[chunk.length + 1];
            System.arraycopy(chunk, 0, next, 0, insert);
            next[insert] = job;
            System.arraycopy(chunk, insert, next, insert + 1, chunk.length - insert);
            size++;
        }
        chunks.put(key, next);
        changed = true;
        if (running != null) {
            keepIn(running, job, job.isRunning());
            keepIn(pending, job, job.isPending());
        }
    }

    private static void keepIn(JobTable index, Job job, boolean belongs) {
        if (belongs) {
            index.put(job);
        } else {
            index.remove(job.id());
        }
    }

    void remove(int id) {
        if (running != null) {
            running.remove(id);
            pending.remove(id);
        }
        int key = id >>> SHIFT;
        Job[] chunk = chunks.get(key);
        int at = chunk == null ? -1 : indexOf(chunk, id);
        if (at < 0) {
            return;
        }
        if (chunk.length == 1) {
            chunks.remove(key);
        } else {
            Job[] next = new Job[chunk.length - 1];
            System.arraycopy(chunk, 0, next, 0, at);
            System.arraycopy(chunk, at + 1, next, at, chunk.length - at - 1);
            chunks.put(key, next);
        }
        size--;
        changed = true;
    }

    int size() {
        return size;
    }

    /** The table as it is now, sharing unchanged chunks with the last one returned. */
    Frozen freeze() {
        if (changed) {
            frozen = new Frozen(
                    chunks.values().toArray(new Job[0][]),
                    size,
                    running == null ? null : running.freeze(),
                    pending == null ? null : pending.freeze());
            changed = false;
        }
        return frozen;
    }

    private static int indexOf(Job[] chunk, int id) {
        int lo = 0;
        int hi = chunk.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int at = chunk[mid].id();
            if (at < id) {
                lo = mid + 1;
            } else if (at > id) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -(lo + 1);
    }

    /** An immutable table: a list in id order, and {@link #byId} a map over the same chunks. */
    static final class Frozen extends AbstractList<Job> implements RandomAccess {
        static final Frozen EMPTY = new Frozen(new Job[0][], 0, null, null);

        private final Job[][] chunks;
        // The running and the pending jobs' tables; null in those tables themselves.
        private final Frozen running;
        private final Frozen pending;
        // starts[c]: the list index of chunk c's first job.
        private final int[] starts;
        private final int size;
        private final Map<Integer, Job> byId = new ById();

        private Frozen(Job[][] chunks, int size, Frozen running, Frozen pending) {
            this.chunks = chunks;
            this.running = running;
            this.pending = pending;
            this.size = size;
            this.starts = new int[chunks.length];
            int at = 0;
            for (int c = 0; c < chunks.length; c++) {
                starts[c] = at;
                at += chunks[c].length;
            }
        }

        @Override
        public Job get(int index) {
            if (index < 0 || index >= size) {
                throw new IndexOutOfBoundsException(index);
            }
            int c = Arrays.binarySearch(starts, index);
            if (c < 0) {
                c = -c - 2;
            }
            // Never empty chunks, so equal starts cannot occur.
            return chunks[c][index - starts[c]];
        }

        @Override
        public int size() {
            return size;
        }

        @Override
        public Iterator<Job> iterator() {
            return new Iterator<>() {
                private int chunk;
                private int at;

                @Override
                public boolean hasNext() {
                    return chunk < chunks.length;
                }

                @Override
                public Job next() {
                    if (chunk >= chunks.length) {
                        throw new NoSuchElementException();
                    }
                    Job job = chunks[chunk][at++];
                    if (at == chunks[chunk].length) {
                        chunk++;
                        at = 0;
                    }
                    return job;
                }
            };
        }

        /** The same jobs by id, without copying them into a hash map. */
        Map<Integer, Job> byId() {
            return byId;
        }

        Job find(int id) {
            int key = id >>> SHIFT;
            int lo = 0;
            int hi = chunks.length - 1;
            while (lo <= hi) {
                int mid = (lo + hi) >>> 1;
                int k = chunks[mid][0].id() >>> SHIFT;
                if (k < key) {
                    lo = mid + 1;
                } else if (k > key) {
                    hi = mid - 1;
                } else {
                    int at = JobTable.indexOf(chunks[mid], id);
                    return at >= 0 ? chunks[mid][at] : null;
                }
            }
            return null;
        }

        private final class ById extends AbstractMap<Integer, Job> {
            @Override
            public Job get(Object key) {
                return key instanceof Integer id ? find(id) : null;
            }

            @Override
            public boolean containsKey(Object key) {
                return get(key) != null;
            }

            @Override
            public int size() {
                return size;
            }

            @Override
            public Set<Entry<Integer, Job>> entrySet() {
                return new AbstractSet<>() {
                    @Override
                    public Iterator<Entry<Integer, Job>> iterator() {
                        Iterator<Job> jobs = Frozen.this.iterator();
                        return new Iterator<>() {
                            @Override
                            public boolean hasNext() {
                                return jobs.hasNext();
                            }

                            @Override
                            public Entry<Integer, Job> next() {
                                Job job = jobs.next();
                                return Map.entry(job.id(), job);
                            }
                        };
                    }

                    @Override
                    public int size() {
                        return size;
                    }
                };
            }
        }

        /**
         * The jobs of {@code jobs} that hold resources ({@link Job#isRunning}), in the same order:
         * the kept index for such a table, a walk over any other list.
         */
        static List<Job> running(List<Job> jobs) {
            if (jobs instanceof Frozen f && f.running != null) {
                return f.running;
            }
            return jobs.stream().filter(Job::isRunning).toList();
        }

        /** The pending jobs of {@code jobs}, in the same order, as {@link #running} does. */
        static List<Job> pending(List<Job> jobs) {
            if (jobs instanceof Frozen f && f.pending != null) {
                return f.pending;
            }
            return jobs.stream().filter(Job::isPending).toList();
        }

        /** Whether {@code list} is such a table (then images take it without copying). */
        static boolean is(List<?> list) {
            return list instanceof Frozen;
        }

        static boolean isById(Map<?, ?> map) {
            return map instanceof Frozen.ById;
        }
    }
}
