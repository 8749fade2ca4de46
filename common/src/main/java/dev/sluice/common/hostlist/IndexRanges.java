package dev.sluice.common.hostlist;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * Sets of small non-negative indices in the range form Slurm and the kernel both print: {@code
 * 0-3,8}. GPU indices ({@code GresUsed=gpu:2(IDX:0-1)}), CPU and core ids ({@code CPU_IDs=}, a
 * cpuset's {@code cpuset.cpus}, {@code taskset --cpu-list}), NVML's recorded device ids. The
 * bracket groups of hostlists are {@link HostList}'s.
 */
public final class IndexRanges {
    /** Refuse to expand absurd ranges into memory ({@code 0-2000000000}). */
    private static final int MAX_INDICES = 1 << 20;

    private IndexRanges() {}

    /** {@code 0-3,8} for {3, 0, 1, 2, 8}: ascending, each index once; empty for none. */
    public static String format(Collection<Integer> indices) {
        requireNonNull(indices, "indices is null");
        List<Integer> sorted = List.copyOf(new TreeSet<>(indices));
        StringBuilder s = new StringBuilder();
        int i = 0;
        while (i < sorted.size()) {
            int j = i;
            while (j + 1 < sorted.size() && sorted.get(j + 1) == sorted.get(j) + 1) {
                j++;
            }
            if (!s.isEmpty()) {
                s.append(',');
            }
            s.append(sorted.get(i));
            if (j > i) {
                s.append('-').append(sorted.get(j));
            }
            i = j + 1;
        }
        return s.toString();
    }

    /**
     * The indices of {@code 0-3,8}, in the order written; blank text is none.
     *
     * @throws IllegalArgumentException for anything but comma-separated indices and ascending ranges
     */
    public static List<Integer> parse(String text) {
        requireNonNull(text, "text is null");
        List<Integer> out = new ArrayList<>();
        if (text.isBlank()) {
            return out;
        }
        for (String part : text.split(",", -1)) {
            String p = part.strip();
            int dash = p.indexOf('-', 1);
            int lo;
            int hi;
            try {
                lo = Integer.parseInt(dash < 0 ? p : p.substring(0, dash).strip());
                hi = dash < 0 ? lo : Integer.parseInt(p.substring(dash + 1).strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("invalid index range \"" + part + "\" in \"" + text + "\"");
            }
            if (lo < 0 || hi < lo || (long) out.size() + hi - lo >= MAX_INDICES) {
                throw new IllegalArgumentException("invalid index range \"" + part + "\" in \"" + text + "\"");
            }
            for (int i = lo; i <= hi; i++) {
                out.add(i);
            }
        }
        return out;
    }
}
