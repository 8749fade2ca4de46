package dev.sluice.common.gres;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * One item of a node's configured {@code Gres=} list (slurm.conf(5)): {@code
 * name[:type][:no_consume]:count}, count optional (1) with an optional K/M/G/T suffix (powers of
 * 1024, as Slurm reads them), e.g. {@code gpu:tesla:2}, {@code mps:400}, {@code
 * bandwidth:lustre:no_consume:4G}.
 *
 * @param type the GRES type ({@code tesla}), or empty when untyped
 * @param noConsume true when allocations do not use the resource up ({@code no_consume})
 */
public record GresSpec(String name, Optional<String> type, long count, boolean noConsume) {

    public GresSpec {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
        if (count < 0) {
            throw new IllegalArgumentException("negative GRES count: " + count);
        }
    }

    /**
     * Parses a comma-separated {@code Gres=} value of a node line.
     *
     * @throws IllegalArgumentException naming the bad item
     */
    public static List<GresSpec> parseNodeList(String value) {
        requireNonNull(value, "value is null");
        List<GresSpec> out = new ArrayList<>();
        if (value.isBlank() || value.equalsIgnoreCase("(null)")) {
            return out;
        }
        for (String item : value.split(",", -1)) {
            out.add(parseNodeItem(item.strip()));
        }
        return out;
    }

    private static GresSpec parseNodeItem(String item) {
        String[] f = item.split(":", -1);
        String name = f[0];
        if (!isName(name)) {
            throw bad(item);
        }
        String type = null;
        boolean noConsume = false;
        long count = 1;
        for (int i = 1; i < f.length; i++) {
            String part = f[i];
            boolean last = i == f.length - 1;
            if (part.equalsIgnoreCase("no_consume")) {
                noConsume = true;
            } else if (last && startsWithDigit(part)) {
                count = parseCount(part, item);
            } else if (type == null && isName(part)) {
                type = part;
            } else {
                throw bad(item);
            }
        }
        return new GresSpec(name, Optional.ofNullable(type), count, noConsume);
    }

    /** A count with optional K/M/G/T suffix (multiples of 1024), as slurm.conf and gres.conf write them. */
    public static long parseCount(String text, String context) {
        String s = text.strip();
        long mult = 1;
        if (!s.isEmpty()) {
            switch (Character.toUpperCase(s.charAt(s.length() - 1))) {
                case 'K' -> mult = 1024L;
                case 'M' -> mult = 1024L * 1024;
                case 'G' -> mult = 1024L * 1024 * 1024;
                case 'T' -> mult = 1024L * 1024 * 1024 * 1024;
                default -> mult = 1;
            }
            if (mult != 1) {
                s = s.substring(0, s.length() - 1);
            }
        }
        if (s.isEmpty() || s.length() > 15 || !s.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw bad(context);
        }
        return Long.parseLong(s) * mult;
    }

    static boolean startsWithDigit(String s) {
        return !s.isEmpty() && s.charAt(0) >= '0' && s.charAt(0) <= '9';
    }

    static boolean isName(String s) {
        if (s.isEmpty() || startsWithDigit(s)) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '.')) {
                return false;
            }
        }
        return true;
    }

    private static IllegalArgumentException bad(String item) {
        return new IllegalArgumentException("Invalid GRES specification \"" + item + "\"");
    }

    /** Slurm's printed form, e.g. {@code gpu:tesla:2} or {@code bandwidth:lustre:no_consume:4G}. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(name);
        type.ifPresent(t -> sb.append(':').append(t));
        if (noConsume) {
            sb.append(":no_consume");
        }
        return sb.append(':').append(formatCount(count)).toString();
    }

    /** A count with Slurm's K/M/G/T suffixes where exact ({@code 4G} for 4294967296). */
    public static String formatCount(long count) {
        String[] units = {"", "K", "M", "G", "T"};
        int u = 0;
        long c = count;
        while (c != 0 && c % 1024 == 0 && u < units.length - 1) {
            c /= 1024;
            u++;
        }
        return c + units[u].toUpperCase(Locale.ROOT);
    }
}
