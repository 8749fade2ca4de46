package dev.sluice.common.slurm;

import java.util.List;

/**
 * Slurm's repeat-count form of per-node counts, as in {@code SLURM_JOB_CPUS_PER_NODE} and
 * {@code SLURM_TASKS_PER_NODE}: runs of equal values as {@code value(xN)}, {@code 4(x2),2}.
 */
public final class RepeatCounts {
    private RepeatCounts() {}

    public static String format(List<Integer> counts) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < counts.size()) {
            int j = i;
            while (j < counts.size() && counts.get(j).equals(counts.get(i))) {
                j++;
            }
            if (out.length() > 0) {
                out.append(',');
            }
            out.append(counts.get(i));
            if (j - i > 1) {
                out.append("(x").append(j - i).append(')');
            }
            i = j;
        }
        return out.toString();
    }
}
