package dev.sluice.ctld.state;

import dev.sluice.common.hostlist.IndexRanges;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * A set of a node's core indices, as Slurm numbers them for {@code gres.conf}'s {@code Cores=}
 * (core {@code i} holds CPUs {@code i*ThreadsPerCore} to {@code (i+1)*ThreadsPerCore-1}).
 * Immutable: {@link #with} and {@link #without} give new sets, so node views built in one
 * scheduling pass share nothing mutable.
 */
public final class CoreSet {
    public static final CoreSet EMPTY = new CoreSet(new long[0]);

    private final long[] words;

    private CoreSet(long[] words) {
        this.words = words;
    }

    public static CoreSet of(Collection<Integer> cores) {
        return EMPTY.with(cores);
    }

    /** Cores {@code 0} to {@code count - 1}. */
    public static CoreSet range(int count) {
        List<Integer> all = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            all.add(i);
        }
        return of(all);
    }

    public boolean contains(int core) {
        int w = core >>> 6;
        return core >= 0 && w < words.length && (words[w] & (1L << core)) != 0;
    }

    public int size() {
        int n = 0;
        for (long w : words) {
            n += Long.bitCount(w);
        }
        return n;
    }

    public boolean isEmpty() {
        return size() == 0;
    }

    public CoreSet with(Collection<Integer> cores) {
        return change(cores, true);
    }

    public CoreSet without(Collection<Integer> cores) {
        return change(cores, false);
    }

    private CoreSet change(Collection<Integer> cores, boolean set) {
        if (cores.isEmpty()) {
            return this;
        }
        // A plain loop: the scheduler's views of later times apply every release to its node's
        // cores, tens of thousands of times per pass on a large cluster.
        int max = 0;
        for (int c : cores) {
            if (c < 0) {
                throw new IllegalArgumentException("negative core index in " + cores);
            }
            max = Math.max(max, c);
        }
        long[] next = Arrays.copyOf(words, Math.max(words.length, set ? (max >>> 6) + 1 : words.length));
        for (int c : cores) {
            int w = c >>> 6;
            if (w < next.length) {
                next[w] = set ? next[w] | (1L << c) : next[w] & ~(1L << c);
            }
        }
        return new CoreSet(next);
    }

    /** The members in ascending order. */
    public List<Integer> toList() {
        List<Integer> out = new ArrayList<>();
        for (int w = 0; w < words.length; w++) {
            long bits = words[w];
            while (bits != 0) {
                int b = Long.numberOfTrailingZeros(bits);
                out.add(w * 64 + b);
                bits &= bits - 1;
            }
        }
        return out;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CoreSet other && toList().equals(other.toList());
    }

    @Override
    public int hashCode() {
        return toList().hashCode();
    }

    @Override
    public String toString() {
        return "CoreSet[" + IndexRanges.format(toList()) + "]";
    }
}
