package dev.sluice.cli.view;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * Job array index expressions as sbatch {@code --array} takes them and squeue prints them:
 * {@code 1-4}, {@code 0,3,7-9}, {@code 0-15:4}, each optionally throttled with {@code %N}.
 */
public final class ArrayTasks {
    /** Refuse to expand absurd ranges into memory (Slurm's MaxArraySize is far lower). */
    private static final int MAX_TASKS = 1 << 20;

    private ArrayTasks() {}

    /** Slurm's compressed form of ascending task ids: {@code 1-3,7}. */
    public static String format(List<Integer> ids) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < ids.size(); ) {
            int j = i;
            while (j + 1 < ids.size() && ids.get(j + 1) == ids.get(j) + 1) {
                j++;
            }
            s.append(s.length() > 0 ? "," : "").append(ids.get(i));
            if (j > i) {
                s.append('-').append(ids.get(j));
            }
            i = j + 1;
        }
        return s.toString();
    }

    /** The task ids of {@code expr} in order; an unreadable expression yields none. */
    public static List<Integer> expand(String expr) {
        List<Integer> out = new ArrayList<>();
        String body = stripThrottle(expr);
        for (String part : body.split(",")) {
            String p = part.strip();
            if (p.isEmpty()) {
                continue;
            }
            int step = 1;
            int colon = p.indexOf(':');
            try {
                if (colon >= 0) {
                    step = Integer.parseInt(p.substring(colon + 1));
                    p = p.substring(0, colon);
                }
                int dash = p.indexOf('-');
                int first = Integer.parseInt(dash >= 0 ? p.substring(0, dash) : p);
                int last = dash >= 0 ? Integer.parseInt(p.substring(dash + 1)) : first;
                if (step <= 0 || first < 0 || last < first) {
                    return List.of();
                }
                for (long t = first; t <= last; t += step) {
                    if (out.size() >= MAX_TASKS) {
                        return List.of();
                    }
                    out.add((int) t);
                }
            } catch (NumberFormatException e) {
                return List.of();
            }
        }
        return out;
    }

    /** The {@code %N} limit of an expression, if any. */
    public static OptionalInt throttle(String expr) {
        int pct = expr.indexOf('%');
        if (pct < 0) {
            return OptionalInt.empty();
        }
        try {
            return OptionalInt.of(Integer.parseInt(expr.substring(pct + 1).strip()));
        } catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }

    private static String stripThrottle(String expr) {
        int pct = expr.indexOf('%');
        return pct < 0 ? expr : expr.substring(0, pct);
    }
}
