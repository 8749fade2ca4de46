package dev.sluice.ctld.state;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * A set of array task ids, parsed from and printed in Slurm's {@code --array} syntax:
 * {@code 0-15}, {@code 1,3,5-7}, {@code 0-15:4} (step). Immutable.
 *
 * <p>The ids are those of {@code bits} from {@code from} on, and the bits are never changed once
 * a set holds them: an array's tasks mostly start lowest first, and the set without its first
 * task shares its bits with the set before, where a copy per started task made splitting a
 * 100,000-task array quadratic (12.5 KB copied, and its bits counted, per task).
 */
public final class TaskSet {
    public static final TaskSet EMPTY = new TaskSet(new BitSet());

    private final BitSet bits;
    private final int from;
    private final int size;

    private TaskSet(BitSet bits) {
        this(bits, 0, bits.cardinality());
    }

    private TaskSet(BitSet bits, int from, int size) {
        this.bits = bits;
        this.from = from;
        this.size = size;
    }

    /**
     * Parses the task part of {@code --array} (without a {@code %throttle}).
     *
     * @throws IllegalArgumentException on bad syntax or ids beyond {@code maxArraySize - 1}
     */
    public static TaskSet parse(String spec, int maxArraySize) {
        BitSet bits = new BitSet();
        for (String part : spec.split(",")) {
            String p = part.strip();
            int step = 1;
            int colon = p.indexOf(':');
            if (colon >= 0) {
                step = Integer.parseInt(p.substring(colon + 1));
                p = p.substring(0, colon);
            }
            int dash = p.indexOf('-');
            int lo = Integer.parseInt(dash < 0 ? p : p.substring(0, dash));
            int hi = dash < 0 ? lo : Integer.parseInt(p.substring(dash + 1));
            if (lo < 0 || hi < lo || step < 1 || hi >= maxArraySize) {
                throw new IllegalArgumentException("invalid array range " + part);
            }
            for (int i = lo; i <= hi; i += step) {
                bits.set(i);
            }
        }
        if (bits.isEmpty()) {
            throw new IllegalArgumentException("empty array specification");
        }
        return new TaskSet(bits);
    }

    public static TaskSet of(List<Integer> ids) {
        BitSet bits = new BitSet();
        ids.forEach(bits::set);
        return new TaskSet(bits);
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public int size() {
        return size;
    }

    /** The lowest id; -1 when empty. */
    public int first() {
        return bits.nextSetBit(from);
    }

    /** The highest id; -1 when empty. */
    public int last() {
        return size == 0 ? -1 : bits.length() - 1;
    }

    public boolean contains(int id) {
        return id >= from && bits.get(id);
    }

    public TaskSet without(int id) {
        if (!contains(id)) {
            return this;
        }
        if (id == first()) {
            return new TaskSet(bits, id + 1, size - 1);
        }
        BitSet copy = own();
        copy.clear(id);
        return new TaskSet(copy, 0, size - 1);
    }

    public TaskSet union(TaskSet other) {
        BitSet copy = own();
        copy.or(other.own());
        return new TaskSet(copy);
    }

    /** A copy of the ids' bits, to change. */
    private BitSet own() {
        BitSet copy = (BitSet) bits.clone();
        copy.clear(0, from);
        return copy;
    }

    public List<Integer> ids() {
        List<Integer> out = new ArrayList<>(size);
        for (int i = first(); i >= 0; i = bits.nextSetBit(i + 1)) {
            out.add(i);
        }
        return out;
    }

    /** Slurm's compressed form: {@code 1-3,7}. */
    public String format() {
        StringBuilder s = new StringBuilder();
        int i = first();
        while (i >= 0) {
            int j = i;
            while (bits.get(j + 1)) {
                j++;
            }
            if (s.length() > 0) {
                s.append(',');
            }
            s.append(i);
            if (j > i) {
                s.append('-').append(j);
            }
            i = bits.nextSetBit(j + 1);
        }
        return s.toString();
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof TaskSet t) || t.size != size) {
            return false;
        }
        for (int i = first(), j = t.first(); i >= 0; i = bits.nextSetBit(i + 1), j = t.bits.nextSetBit(j + 1)) {
            if (i != j) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        // Over the ids themselves, as equals compares them: no copy of shared bits.
        int h = 1;
        for (int i = first(); i >= 0; i = bits.nextSetBit(i + 1)) {
            h = 31 * h + i;
        }
        return h;
    }

    @Override
    public String toString() {
        return format();
    }
}
