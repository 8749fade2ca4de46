package dev.sluice.ctld.state;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * A {@code --constraint} expression over node features, as sbatch(1) describes it: features
 * joined by {@code &} or {@code ,} (all must be present) and {@code |} (any), with {@code &}
 * binding tighter than {@code |}. Matching is case-sensitive, as Slurm's is. (Bracketed
 * "matching OR" and counts such as {@code a*2} are rejected as not yet supported.)
 */
public final class FeatureConstraint {
    public static final FeatureConstraint NONE = new FeatureConstraint("", List.of());

    /** As the user typed it: Slurm echoes it ({@code Features=}, squeue {@code %f}). */
    private final String text;
    /** Alternatives (OR) of conjunctions (AND). */
    private final List<List<String>> anyOf;

    private FeatureConstraint(String text, List<List<String>> anyOf) {
        this.text = text;
        this.anyOf = anyOf;
    }

    /** @throws IllegalArgumentException on syntax Sluice does not accept */
    public static FeatureConstraint parse(String text) {
        if (text == null || text.isEmpty()) {
            return NONE;
        }
        if (text.isBlank()) {
            return new FeatureConstraint(text, List.of());
        }
        if (text.contains("[") || text.contains("*") || text.contains("(")) {
            throw new IllegalArgumentException("unsupported constraint syntax: " + text);
        }
        List<List<String>> alternatives = new ArrayList<>();
        for (String alt : text.split("\\|", -1)) {
            List<String> all = new ArrayList<>();
            for (String f : alt.split("[&,]", -1)) {
                String feature = f.strip();
                if (feature.isEmpty()) {
                    throw new IllegalArgumentException("empty feature in " + text);
                }
                all.add(feature);
            }
            alternatives.add(List.copyOf(all));
        }
        return new FeatureConstraint(text, List.copyOf(alternatives));
    }

    /** The expression as typed; empty when none was given. */
    public String text() {
        return text;
    }

    public boolean isEmpty() {
        return anyOf.isEmpty();
    }

    public boolean matches(Collection<String> features) {
        if (anyOf.isEmpty()) {
            return true;
        }
        for (List<String> all : anyOf) {
            if (features.containsAll(all)) {
                return true;
            }
        }
        return false;
    }

    /** Every feature the expression names. */
    public List<String> features() {
        return anyOf.stream().flatMap(List::stream).distinct().toList();
    }

    /** Same alternatives in the same order: equal, so equal requests can share an answer. */
    @Override
    public boolean equals(Object o) {
        return o instanceof FeatureConstraint other && anyOf.equals(other.anyOf);
    }

    @Override
    public int hashCode() {
        return anyOf.hashCode();
    }

    /** The normalized expression ({@code a&b|c}); {@link #text()} is what the user typed. */
    @Override
    public String toString() {
        List<String> alts = new ArrayList<>();
        anyOf.forEach(a -> alts.add(String.join("&", a)));
        return String.join("|", alts);
    }
}
