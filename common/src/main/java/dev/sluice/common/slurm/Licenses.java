package dev.sluice.common.slurm;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A list of license counts as slurm.conf's {@code Licenses=} and the commands' {@code -L} write
 * it: {@code foo:4,bar}, a name without a count meaning one (slurm.conf(5), sbatch(1)). The same
 * name given twice counts twice. The configured list is kept in name order (as {@code scontrol
 * show licenses} lists it), a job's request in the order it was typed.
 */
public final class Licenses {
    public static final Licenses NONE = new Licenses(Map.of(), "");

    private final Map<String, Long> counts;
    // As typed: Slurm 22.05 shows a job's licenses so (foo:2,bar; bar,foo:1,foo:1).
    private final String text;

    private Licenses(Map<String, Long> counts, String text) {
        this.counts = Collections.unmodifiableMap(counts);
        this.text = text;
    }

    /**
     * Parses {@code name[:count][,name[:count]...]}; blank text is no licenses.
     *
     * @throws IllegalArgumentException for an empty name or a count that is not a positive number
     */
    public static Licenses parse(String text) {
        if (text == null || text.isBlank()) {
            return NONE;
        }
        Map<String, Long> out = new LinkedHashMap<>();
        for (String item : text.split(",", -1)) {
            String t = item.strip();
            if (t.isEmpty()) {
                continue; // Slurm 22.05 takes ",foo"
            }
            int colon = t.indexOf(':');
            String name = colon < 0 ? t : t.substring(0, colon);
            long count = 1;
            if (colon >= 0) {
                try {
                    count = Long.parseLong(t.substring(colon + 1));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("invalid license count in " + t);
                }
            }
            if (name.isEmpty() || count < 0) {
                throw new IllegalArgumentException("invalid license " + t);
            }
            out.merge(name, count, Long::sum);
        }
        return new Licenses(out, text.strip());
    }

    /** A configured list: {@link #parse}, kept in name order. */
    public static Licenses configured(String text) {
        Licenses typed = parse(text);
        return new Licenses(new TreeMap<>(typed.counts), typed.text);
    }

    public boolean isEmpty() {
        return counts.isEmpty();
    }

    /** Name to count, in this list's order. */
    public Map<String, Long> counts() {
        return counts;
    }

    public long count(String name) {
        return counts.getOrDefault(name, 0L);
    }

    /**
     * Whether a request names only licenses of this (configured) list, each at most its total:
     * Slurm refuses any other job at submission as "Invalid license specification".
     */
    public boolean admits(Licenses request) {
        for (Map.Entry<String, Long> e : request.counts.entrySet()) {
            if (e.getValue() > count(e.getKey())) {
                return false;
            }
        }
        return true;
    }

    /** The list as typed, as Slurm 22.05 prints a job's licenses. */
    @Override
    public String toString() {
        return text;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Licenses l && counts.equals(l.counts) && text.equals(l.text);
    }

    @Override
    public int hashCode() {
        return counts.hashCode();
    }
}
