package dev.sluice.common.tres;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.units.MemorySize;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * An immutable set of TRES counts, keyed by TRES name ({@code cpu}, {@code mem}, {@code node},
 * {@code billing}, {@code gres/gpu}, {@code gres/gpu:a100}, {@code license/matlab}, ...).
 *
 * <p>Printed in Slurm's order: the built-in TRES by their fixed ids (cpu, mem, energy, node,
 * billing, fs/disk, vmem, pages), then the others in the order they were added (Slurm orders them
 * by database id, which follows the order they were first configured). Memory-like TRES ({@code
 * mem}, {@code vmem}, {@code fs/disk}) are MB and print with units ({@code mem=16000M}, {@code
 * mem=4G}); counts print as numbers. Parsing accepts the same text, with a unit suffix allowed on
 * memory-like TRES (default M).
 */
public final class Tres {

    private static final List<String> BUILT_IN =
            List.of("cpu", "mem", "energy", "node", "billing", "fs/disk", "vmem", "pages");
    private static final java.util.Set<String> BUILT_IN_SET = java.util.Set.copyOf(BUILT_IN);
    private static final List<String> MEMORY = List.of("mem", "vmem", "fs/disk");

    private final Map<String, Long> counts;

    private Tres(Map<String, Long> counts) {
        this.counts = Collections.unmodifiableMap(counts);
    }

    /** A license's TRES name is this and the license's: {@code license/matlab}. */
    public static final String LICENSE = "license/";

    /**
     * The licenses slurm.conf's {@code AccountingStorageTRES} names ({@code license/foo}): the
     * only ones Slurm counts in a job's TRES (ReqTRES, AllocTRES, and so sacct's).
     *
     * @param accountingStorageTres the setting's comma list; null or blank for none
     */
    public static java.util.Set<String> trackedLicenses(String accountingStorageTres) {
        if (accountingStorageTres == null || accountingStorageTres.isBlank()) {
            return java.util.Set.of();
        }
        java.util.Set<String> out = new TreeSet<>();
        for (String item : accountingStorageTres.split(",")) {
            String t = item.strip();
            if (t.toLowerCase(Locale.ROOT).startsWith(LICENSE) && t.length() > LICENSE.length()) {
                out.add(t.substring(LICENSE.length()));
            }
        }
        return java.util.Set.copyOf(out);
    }

    /** The TRES every cluster has, in Slurm's order (cpu, mem, energy, node, billing, fs/disk, vmem, pages). */
    public static List<String> builtIn() {
        return BUILT_IN;
    }

    public static Tres empty() {
        return new Tres(new LinkedHashMap<>());
    }

    /** Builds from counts (memory-like TRES in MB), keeping insertion order for non-built-in names. */
    public static Tres of(Map<String, Long> counts) {
        requireNonNull(counts, "counts is null");
        Map<String, Long> m = new LinkedHashMap<>();
        counts.forEach((k, v) -> m.put(checkName(k), checkCount(k, v)));
        return new Tres(m);
    }

    /**
     * Parses {@code name=count,...}; an empty string is the empty set.
     *
     * @throws IllegalArgumentException "Invalid TRES specification" naming the bad item
     */
    public static Tres parse(String text) {
        requireNonNull(text, "text is null");
        Map<String, Long> m = new LinkedHashMap<>();
        for (String item : text.split(",", -1)) {
            if (item.isBlank()) {
                continue;
            }
            int eq = item.indexOf('=');
            if (eq <= 0 || eq == item.length() - 1) {
                throw invalid(item);
            }
            String name = item.substring(0, eq).strip().toLowerCase(Locale.ROOT);
            String value = item.substring(eq + 1).strip();
            long n;
            try {
                n = MEMORY.contains(name) ? memory(value) : Long.parseLong(value);
            } catch (IllegalArgumentException e) {
                throw invalid(item);
            }
            if (n < 0 || m.containsKey(name)) {
                throw invalid(item);
            }
            m.put(checkName(name), n);
        }
        return new Tres(m);
    }

    /** MB from {@code 16000M}, {@code 4G} or the fractional form Slurm prints ({@code 1.50G}). */
    private static long memory(String value) {
        if (value.matches("\\d{1,12}\\.\\d{1,2}[MGTPmgtp]")) {
            int power = "MGTP".indexOf(Character.toUpperCase(value.charAt(value.length() - 1)));
            double mb = Double.parseDouble(value.substring(0, value.length() - 1)) * Math.pow(1024, power);
            return Math.round(mb);
        }
        return MemorySize.parseMegabytes(value);
    }

    private static String checkName(String name) {
        requireNonNull(name, "TRES name is null");
        if (name.isEmpty() || name.contains(",") || name.contains("=")) {
            throw invalid(name);
        }
        return name;
    }

    private static long checkCount(String name, Long v) {
        requireNonNull(v, "count of " + name + " is null");
        if (v < 0) {
            throw invalid(name + "=" + v);
        }
        return v;
    }

    private static IllegalArgumentException invalid(String item) {
        return new IllegalArgumentException("Invalid TRES specification \"" + item + "\"");
    }

    public long get(String name) {
        return counts.getOrDefault(name, 0L);
    }

    public Map<String, Long> asMap() {
        return counts;
    }

    public boolean isEmpty() {
        return counts.isEmpty();
    }

    /** A copy with one count set (replacing any earlier value, keeping its position). */
    public Tres with(String name, long count) {
        Map<String, Long> m = new LinkedHashMap<>(counts);
        m.put(checkName(name), checkCount(name, count));
        return new Tres(m);
    }

    /** The sum of both, name by name (names only in {@code other} follow this one's). */
    public Tres plus(Tres other) {
        Map<String, Long> m = new LinkedHashMap<>(counts);
        other.counts.forEach((k, v) -> m.merge(k, v, Long::sum));
        return new Tres(m);
    }

    /** Names in Slurm's print order. */
    public List<String> orderedNames() {
        List<String> out = new ArrayList<>();
        for (String b : BUILT_IN) {
            if (counts.containsKey(b)) {
                out.add(b);
            }
        }
        for (String k : counts.keySet()) {
            if (!BUILT_IN.contains(k)) {
                out.add(k);
            }
        }
        return out;
    }

    /** Slurm's text, e.g. {@code cpu=2,mem=16000M,node=2,billing=2,gres/gpu=4}. */
    public String format() {
        // The order of orderedNames, without building its list: every job's ReqTRES and
        // AllocTRES are formatted for squeue and for accounting, several times in its life.
        StringBuilder sb = new StringBuilder(16 * counts.size());
        for (String k : BUILT_IN) {
            Long v = counts.get(k);
            if (v != null) {
                append(sb, k, v);
            }
        }
        if (counts.size() > BUILT_IN_SET.size() || !BUILT_IN_SET.containsAll(counts.keySet())) {
            for (var e : counts.entrySet()) {
                if (!BUILT_IN_SET.contains(e.getKey())) {
                    append(sb, e.getKey(), e.getValue());
                }
            }
        }
        return sb.toString();
    }

    private static void append(StringBuilder sb, String name, long v) {
        if (!sb.isEmpty()) {
            sb.append(',');
        }
        sb.append(name).append('=');
        if (MEMORY.contains(name)) {
            sb.append(MemorySize.format(v));
        } else {
            sb.append(v);
        }
    }

    /**
     * The same items in the same order with every count a plain number, memory too: TRES
     * minutes and usage as sshare prints them ({@code cpu=120,mem=0,energy=0,...}).
     */
    public String formatCounts() {
        StringBuilder sb = new StringBuilder();
        for (String k : orderedNames()) {
            if (!sb.isEmpty()) {
                sb.append(',');
            }
            sb.append(k).append('=').append(counts.get(k));
        }
        return sb.toString();
    }

    /**
     * sacct's text: the same items with the names in alphabetical order, as sacct prints
     * AllocTRES and ReqTRES ({@code billing=2,cpu=2,mem=1G,node=1}).
     */
    public String formatByName() {
        return formatByName(MemorySize::format);
    }

    /** As {@link #formatByName()}, memory-like counts (MB) printed by {@code memory} (sacct --units). */
    public String formatByName(java.util.function.LongFunction<String> memory) {
        StringBuilder sb = new StringBuilder();
        for (String k : new TreeSet<>(counts.keySet())) {
            if (!sb.isEmpty()) {
                sb.append(',');
            }
            long v = counts.get(k);
            sb.append(k).append('=').append(MEMORY.contains(k) ? memory.apply(v) : Long.toString(v));
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Tres t && t.counts.equals(counts);
    }

    @Override
    public int hashCode() {
        return counts.hashCode();
    }

    @Override
    public String toString() {
        return format();
    }
}
