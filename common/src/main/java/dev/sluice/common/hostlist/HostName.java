package dev.sluice.common.hostlist;

import java.util.Comparator;

/**
 * A host name split the way Slurm's hostlist code splits it: a prefix and, when the name ends in
 * digits, a numeric suffix with its printed width ({@code n007} is prefix {@code n}, number 7,
 * width 3). Names without trailing digits are "single hosts" and never join a range.
 *
 * <p>Suffixes longer than {@value #MAX_DIGITS} digits are not treated as numbers: Slurm would
 * silently clamp them to {@code ULONG_MAX} and so rename the host; Sluice keeps the name intact.
 */
record HostName(String prefix, long number, int width) {

    static final int MAX_DIGITS = 18;

    /** Width of a single host (no numeric suffix). */
    static final int NONE = -1;

    static HostName parse(String name) {
        int end = name.length();
        int start = end;
        while (start > 0 && isAsciiDigit(name.charAt(start - 1))) {
            start--;
        }
        int digits = end - start;
        if (digits == 0 || digits > MAX_DIGITS) {
            return new HostName(name, 0, NONE);
        }
        return new HostName(name.substring(0, start), Long.parseLong(name.substring(start)), digits);
    }

    private static boolean isAsciiDigit(char c) {
        return c >= '0' && c <= '9';
    }

    boolean single() {
        return width == NONE;
    }

    /** True when the number needs leading zeros to reach the width ({@code 007}). */
    boolean padded() {
        return !single() && digitCount(number) < width;
    }

    static int digitCount(long n) {
        return Long.toString(n).length();
    }

    static String format(String prefix, long number, int width) {
        String digits = Long.toString(number);
        if (digits.length() >= width) {
            return prefix + digits;
        }
        return prefix + "0".repeat(width - digits.length()) + digits;
    }

    /**
     * Slurm's total order for sorted host lists: prefix in natural order, names without a number
     * first, then width, then number. For two hosts whose widths are compatible (see {@link
     * Range#widthCompatible}) ordering by width agrees with ordering by number, so this is the same
     * order Slurm's range comparator yields, made total.
     */
    static final Comparator<HostName> SLURM_ORDER = (a, b) -> {
        int c = NaturalOrder.compare(a.prefix, b.prefix);
        if (c != 0) {
            return c;
        }
        if (a.single() != b.single()) {
            return a.single() ? -1 : 1;
        }
        if (a.single()) {
            return 0;
        }
        c = Integer.compare(a.width, b.width);
        return c != 0 ? c : Long.compare(a.number, b.number);
    };
}
