package dev.sluice.ctld.state;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * A set of array task ids, parsed from and printed in Slurm's {@code --array} syntax:
 * {@code 0-15}, {@code 1,3,5-7}, {@code 0-15:4} (step). Immutable.
 */
public final class TaskSet {
    public static final TaskSet EMPTY = new TaskSet(new BitSet());

    private final BitSet bits;

    private TaskSet(BitSet bits) {
        this.bits = bits;
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
        return bits.isEmpty();
    }

    public int size() {
        return bits.cardinality();
    }

    public int first() {
        return bits.nextSetBit(0);
    }

    public int last() {
        return bits.length() - 1;
    }

    public boolean contains(int id) {
        return id >= 0 && bits.get(id);
    }

    public TaskSet without(int id) {
        BitSet copy = (BitSet) bits.clone();
        copy.clear(id);
        return new TaskSet(copy);
    }

    public TaskSet union(TaskSet other) {
        BitSet copy = (BitSet) bits.clone();
        copy.or(other.bits);
        return new TaskSet(copy);
    }

    public List<Integer> ids() {
        List<Integer> out = new ArrayList<>();
        bits.stream().forEach(out::add);
        return out;
    }

    /** Slurm's compressed form: {@code 1-3,7}. */
    public String format() {
        StringBuilder s = new StringBuilder();
        int i = bits.nextSetBit(0);
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
        return o instanceof TaskSet t && t.bits.equals(bits);
    }

    @Override
    public int hashCode() {
        return bits.hashCode();
    }

    @Override
    public String toString() {
        return format();
    }
}
