package dev.sluice.ctld.limits;

import dev.sluice.common.tres.Tres;
import dev.sluice.common.units.MemorySize;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A TRES limit as sacctmgr's {@code GrpTRES=}/{@code MaxTRES=} give it
 * ({@code cpu=4,mem=8G,node=2,gres/gpu=2}): per TRES name, a cap; memory in megabytes. A TRES set
 * to -1 (or not named) has no cap. Pure.
 */
public record TresLimits(Map<String, Long> caps) {
    public static final TresLimits NONE = new TresLimits(Map.of());

    /** The TRES the controller enforces, in the order their reasons are checked. */
    static final String[] ORDER = {"cpu", "mem", "node"};

    public TresLimits {
        caps = Collections.unmodifiableMap(new TreeMap<>(caps));
    }

    /**
     * @throws IllegalArgumentException for a count that is not a number (memory may carry K, M,
     *     G or T, as {@link MemorySize}; a bare number is megabytes)
     */
    public static TresLimits parse(String text) {
        if (text == null || text.isBlank()) {
            return NONE;
        }
        Map<String, Long> caps = new LinkedHashMap<>();
        for (String part : text.split(",")) {
            int eq = part.indexOf('=');
            if (eq <= 0) {
                continue;
            }
            String name = part.substring(0, eq).strip().toLowerCase(Locale.ROOT);
            String value = part.substring(eq + 1).strip();
            if (value.isEmpty()) {
                continue;
            }
            long n = name.equals("mem") ? megabytes(value) : Long.parseLong(value);
            if (n >= 0) {
                caps.put(name, n);
            }
        }
        return new TresLimits(caps);
    }

    private static long megabytes(String value) {
        // -1 clears the cap; anything else is a size, megabytes unless it says otherwise.
        return value.startsWith("-") ? Long.parseLong(value) : MemorySize.parseMegabytes(value);
    }

    /** The cap of one TRES, {@link Limits#NONE} when it has none. */
    public long get(String name) {
        return caps.getOrDefault(name, Limits.NONE);
    }

    /** These caps, with those not set taken from {@code parent}. */
    public TresLimits orElse(TresLimits parent) {
        Map<String, Long> out = new TreeMap<>(parent.caps);
        out.putAll(caps);
        return new TresLimits(out);
    }

    /**
     * These caps less those {@code over} names: where a job's QOS caps a TRES, Slurm does not
     * check the association's cap on it (the first level of its hierarchy to set a limit holds;
     * compat 265).
     */
    public TresLimits without(TresLimits over) {
        if (over.caps.isEmpty()) {
            return this;
        }
        Map<String, Long> out = new TreeMap<>(caps);
        out.keySet().removeAll(over.caps.keySet());
        return new TresLimits(out);
    }

    /**
     * The first TRES over its cap when {@code used + wanted} is counted against it: cpu, mem,
     * node, then GRES by name; null when none is.
     */
    public String exceeded(Tres used, Tres wanted) {
        for (String name : ORDER) {
            long cap = get(name);
            if (cap != Limits.NONE && used.get(name) + wanted.get(name) > cap) {
                return name;
            }
        }
        for (Map.Entry<String, Long> e : caps.entrySet()) {
            if (e.getKey().startsWith("gres/") && used.get(e.getKey()) + wanted.get(e.getKey()) > e.getValue()) {
                return e.getKey();
            }
        }
        return null;
    }
}
