package dev.sluice.common.hostlist;

/**
 * One run of consecutive host numbers sharing a prefix and a print width ({@code n[009-012]}), or a
 * single host without a numeric suffix. Mutable only while {@link HostList} builds a list; never
 * escapes the package.
 */
final class Range {
    final String prefix;
    final long lo;
    long hi;
    final int width;

    Range(HostName h) {
        this.prefix = h.prefix();
        this.lo = h.number();
        this.hi = h.number();
        this.width = h.width();
    }

    boolean single() {
        return width == HostName.NONE;
    }

    /**
     * Appends {@code h} when it is the next number of this run and its width is compatible, the
     * way Slurm extends the last range when a host is pushed onto a list.
     */
    boolean tryExtend(HostName h) {
        if (single() || h.single() || !prefix.equals(h.prefix()) || hi == Long.MAX_VALUE || h.number() != hi + 1) {
            return false;
        }
        return widthCompatible(lo, width, h.number(), h.width());
    }

    /**
     * Two widths are compatible when they are equal or when printing both numbers with the same
     * width would not change either number's zero padding: {@code n9} and {@code n10} combine
     * ({@code n[9-10]}), {@code n1} and {@code n01} do not. Appending never needs to widen the
     * range because a successor number is never narrower than its predecessor.
     */
    static boolean widthCompatible(long n, int wn, long m, int wm) {
        if (wn == wm) {
            return true;
        }
        boolean nKeeps = pad(n, wn) == pad(n, wm);
        boolean mKeeps = pad(m, wm) == pad(m, wn);
        return nKeeps || mKeeps;
    }

    private static int pad(long num, int width) {
        return Math.max(0, width - HostName.digitCount(num));
    }

    /** True when this range and {@code other} print inside one pair of brackets. */
    boolean sharesBracketWith(Range other) {
        return !single() && !other.single() && prefix.equals(other.prefix);
    }

    String body() {
        String first = HostName.format("", lo, width);
        return lo == hi ? first : first + "-" + HostName.format("", hi, width);
    }

    String firstHost() {
        return single() ? prefix : HostName.format(prefix, lo, width);
    }
}
