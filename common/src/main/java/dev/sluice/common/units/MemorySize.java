package dev.sluice.common.units;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Memory in megabytes (MiB; Slurm's "M" is 1024 KiB).
 *
 * <p>Parsing follows Slurm's {@code --mem} rules: a non-negative integer, default unit M, optional
 * suffix {@code K}, {@code M}, {@code G} or {@code T} (any case) optionally followed by {@code B};
 * kilobytes round up to whole megabytes. Formatting follows how Slurm prints memory in TRES strings
 * ({@code ReqTRES=...,mem=16000M}): the largest unit that keeps the value exact, where halves still
 * count as exact ({@code 4096} is {@code 4G}, {@code 1536} is {@code 1.50G}, {@code 16000} is {@code
 * 16000M}, 0 is {@code 0}).
 */
public final class MemorySize {

    private static final String UNITS = "MGTP";

    private MemorySize() {}

    /**
     * Parses a memory size to megabytes.
     *
     * @throws IllegalArgumentException "Invalid memory specification" for anything else, including
     *     negative numbers and values that overflow
     */
    public static long parseMegabytes(String text) {
        requireNonNull(text, "text is null");
        String s = text.strip();
        int i = 0;
        while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
            i++;
        }
        if (i == 0 || i > 18) {
            throw invalid(text);
        }
        long n = Long.parseLong(s.substring(0, i));
        String suffix = s.substring(i);
        if (suffix.isEmpty()) {
            return n;
        }
        if (suffix.length() > 2 || (suffix.length() == 2 && Character.toUpperCase(suffix.charAt(1)) != 'B')) {
            throw invalid(text);
        }
        try {
            return switch (Character.toUpperCase(suffix.charAt(0))) {
                case 'K' -> (n + 1023) / 1024;
                case 'M' -> n;
                case 'G' -> Math.multiplyExact(n, 1024L);
                case 'T' -> Math.multiplyExact(n, 1024L * 1024);
                default -> throw invalid(text);
            };
        } catch (ArithmeticException e) {
            throw invalid(text);
        }
    }

    private static IllegalArgumentException invalid(String text) {
        return new IllegalArgumentException("Invalid memory specification: \"" + text + "\"");
    }

    /** Prints megabytes the way TRES strings do ({@code 4G}, {@code 16000M}, {@code 1.50G}). */
    public static String format(long megabytes) {
        if (megabytes < 0) {
            throw new IllegalArgumentException("negative memory size: " + megabytes);
        }
        if (megabytes == 0) {
            return "0";
        }
        double num = megabytes;
        int unit = 0;
        // Slurm's "exact" conversion: keep dividing while the value is a multiple of half a unit.
        while (num >= 1024 && unit < UNITS.length() - 1 && ((long) num) % 512 == 0) {
            num /= 1024;
            unit++;
        }
        long whole = (long) num;
        if (whole == num) {
            return whole + String.valueOf(UNITS.charAt(unit));
        }
        // A single division by 1024 of a multiple of 512 leaves exactly a half, which %.2f prints
        // as .50: the common case (a node's 64000M is 62.50G), without the cost of a Formatter.
        if (num - whole == 0.5) {
            return whole + ".50" + UNITS.charAt(unit);
        }
        return String.format(java.util.Locale.ROOT, "%.2f%c", num, UNITS.charAt(unit));
    }

    /**
     * Prints megabytes in one unit, as sacct's {@code --units=K|M|G|T|P} does: whole values bare
     * ({@code 4G}, {@code 1572864K}), others with two decimals rounded as C's {@code %.2f}
     * rounds the binary value, half to even ({@code 15.62G} for 16000M, {@code 0.00T} for
     * 1536M); 0 stays {@code 0}.
     *
     * @param unit one of {@code KMGTP}
     */
    public static String format(long megabytes, char unit) {
        if (megabytes < 0) {
            throw new IllegalArgumentException("negative memory size: " + megabytes);
        }
        int power = ("K" + UNITS).indexOf(unit) - 1;
        if (power < -1) {
            throw new IllegalArgumentException("not a unit of K, M, G, T, P: " + unit);
        }
        if (megabytes == 0) {
            return "0";
        }
        BigDecimal v = BigDecimal.valueOf(megabytes);
        v = power < 0 ? v.multiply(BigDecimal.valueOf(1024)) : new BigDecimal(megabytes / Math.pow(1024, power));
        if (v.stripTrailingZeros().scale() <= 0) {
            return v.toBigInteger() + String.valueOf(unit);
        }
        return v.setScale(2, RoundingMode.HALF_EVEN).toPlainString() + unit;
    }
}
