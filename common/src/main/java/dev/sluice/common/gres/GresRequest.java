package dev.sluice.common.gres;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * One item of a job or step GRES request ({@code --gres=gpu:a100:2,mps:50}), with the rules of
 * Slurm 22.05's request parser:
 *
 * <ul>
 *   <li>{@code name} counts 1; {@code name:N} is a count when N is a number (optional K/M/G/T/P
 *       suffix, powers of 1024), otherwise a type with count 1; {@code name:type:N} needs a number;
 *   <li>an optional {@code gres:} or {@code gres/} prefix per item is accepted (Slurm's internal
 *       {@code tres_per_node} form);
 *   <li>empty items are skipped, items with count 0 are dropped;
 *   <li>anything else ({@code gpu:}, {@code gpu::1}, {@code gpu:a100:x}) is the error {@value
 *       #INVALID}.
 * </ul>
 *
 * Whether the name is configured ({@code GresTypes}) is checked by {@link #checkConfigured}.
 */
public record GresRequest(String name, Optional<String> type, long count) {

    /** Slurm's message for ESLURM_INVALID_GRES. */
    public static final String INVALID = "Invalid generic resource (gres) specification";

    public GresRequest {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
        if (count <= 0) {
            throw new IllegalArgumentException("GRES count must be positive: " + count);
        }
    }

    /** @throws IllegalArgumentException with message {@value #INVALID} */
    public static List<GresRequest> parseList(String text) {
        requireNonNull(text, "text is null");
        List<GresRequest> out = new ArrayList<>();
        for (String raw : text.split(",", -1)) {
            String item = raw.strip();
            if (item.startsWith("gres:") || item.startsWith("gres/")) {
                item = item.substring(5);
            }
            if (item.isEmpty()) {
                continue;
            }
            String[] f = item.split(":", 3);
            String name = f[0];
            if (!GresSpec.isName(name)) {
                throw invalid(text);
            }
            String type = null;
            long count = 1;
            if (f.length == 3) {
                if (f[1].isEmpty() || f[2].isEmpty() || !GresSpec.isName(f[1])) {
                    throw invalid(text);
                }
                type = f[1];
                count = number(f[2], text);
            } else if (f.length == 2) {
                if (f[1].isEmpty()) {
                    throw invalid(text);
                }
                if (GresSpec.startsWithDigit(f[1])) {
                    count = number(f[1], text);
                } else if (GresSpec.isName(f[1])) {
                    type = f[1];
                } else {
                    throw invalid(text);
                }
            }
            if (count > 0) {
                out.add(new GresRequest(name, Optional.ofNullable(type), count));
            }
        }
        return out;
    }

    private static long number(String s, String text) {
        String digits = s;
        long mult = 1;
        char last = Character.toUpperCase(s.charAt(s.length() - 1));
        int power = "KMGTP".indexOf(last) + 1;
        if (power > 0) {
            digits = s.substring(0, s.length() - 1);
            for (int i = 0; i < power; i++) {
                mult *= 1024;
            }
        }
        if (digits.isEmpty() || digits.length() > 15 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw invalid(text);
        }
        try {
            return Math.multiplyExact(Long.parseLong(digits), mult);
        } catch (ArithmeticException e) {
            throw invalid(text);
        }
    }

    private static IllegalArgumentException invalid(String text) {
        return new IllegalArgumentException(INVALID + " (\"" + text + "\")");
    }

    /**
     * Checks every requested name against {@code GresTypes}.
     *
     * @throws IllegalArgumentException with {@value #INVALID} naming the unknown GRES
     */
    public static void checkConfigured(Collection<GresRequest> requests, Collection<String> gresTypes) {
        for (GresRequest r : requests) {
            boolean known = gresTypes.stream().anyMatch(t -> t.equalsIgnoreCase(r.name()));
            if (!known) {
                throw new IllegalArgumentException(INVALID + " (GRES \"" + r.name() + "\" is not in GresTypes)");
            }
        }
    }

    /** The form Slurm prints in {@code TresPerNode=}: {@code gres/gpu:a100:2}. */
    public String toTresPerNode() {
        return "gres/" + name + type.map(t -> ":" + t).orElse("") + ":" + count;
    }

    /** The {@code --gres} form: {@code gpu:a100:2}. */
    @Override
    public String toString() {
        return name + type.map(t -> ":" + t).orElse("") + ":" + count;
    }
}
