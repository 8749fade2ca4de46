package dev.sluice.dbd.model;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.tres.Tres;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Trackable-resource counts keyed by TRES name ({@code cpu}, {@code mem}, {@code gres/gpu}), as
 * the database keeps them. Memory counts are megabytes, as Slurm keeps them.
 *
 * <p>A thin codec over {@link Tres}, which owns the named spellings (the controller's {@code
 * cpu=2,mem=256M,node=1} and sacct's sorted {@code billing=2,cpu=2,mem=256M,node=1}); what is
 * dbd's own is the database's id form {@code 1=2,2=256,4=1} (Slurm's, so stored rows read like
 * Slurm's).
 */
public record TresCounts(Map<String, Long> counts) {
    public static final TresCounts EMPTY = new TresCounts(Map.of());

    public TresCounts {
        counts = Collections.unmodifiableMap(new TreeMap<>(counts));
    }

    /**
     * Parses the controller's named form ({@link Tres#parse}: memory may carry K/M/G/T).
     *
     * @throws IllegalArgumentException for text that is not a TRES list
     */
    public static TresCounts parseNamed(String text) {
        requireNonNull(text, "text is null");
        return new TresCounts(Tres.parse(text).asMap());
    }

    private static long parseCount(String value, String text) {
        try {
            long n = Long.parseLong(value);
            if (n < 0) {
                throw new NumberFormatException("negative");
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("malformed TRES count \"" + value + "\" in \"" + text + "\"", e);
        }
    }

    /** The database form, ids from {@code idOf} (which may create ids for new TRES). */
    public String toIdForm(Function<String, Integer> idOf) {
        Map<Integer, Long> byId = new TreeMap<>();
        counts.forEach((name, count) -> byId.put(idOf.apply(name), count));
        StringBuilder s = new StringBuilder();
        byId.forEach((id, count) -> {
            if (!s.isEmpty()) {
                s.append(',');
            }
            s.append(id).append('=').append(count);
        });
        return s.toString();
    }

    /** Reads the database form; ids {@code nameOf} does not know are kept as their number. */
    public static TresCounts parseIdForm(String text, Function<Integer, String> nameOf) {
        requireNonNull(text, "text is null");
        Map<String, Long> out = new TreeMap<>();
        for (String part : text.split(",")) {
            if (part.isBlank()) {
                continue;
            }
            int eq = part.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("malformed stored TRES \"" + text + "\"");
            }
            int id = Integer.parseInt(part.substring(0, eq));
            String name = nameOf.apply(id);
            out.put(name == null ? Integer.toString(id) : name, parseCount(part.substring(eq + 1), text));
        }
        return new TresCounts(out);
    }

    /** sacct's form: names in order, memory with its unit ({@link Tres#formatByName}). */
    public String toNamedForm() {
        return Tres.of(counts).formatByName();
    }

    public long get(String name) {
        return counts.getOrDefault(name, 0L);
    }
}
