package dev.sluice.common.hostlist;

/**
 * "Natural" string order (runs of digits compare by value, so {@code rack9} sorts before {@code
 * rack10}), which Slurm applies to hostlist prefixes. Equal-valued digit runs fall back to plain
 * character order so the comparison stays consistent with {@link String#equals}.
 */
final class NaturalOrder {
    private NaturalOrder() {}

    static int compare(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            char ca = a.charAt(i);
            char cb = b.charAt(j);
            if (isDigit(ca) && isDigit(cb)) {
                int ei = runEnd(a, i);
                int ej = runEnd(b, j);
                int c = compareDigitRuns(a.substring(i, ei), b.substring(j, ej));
                if (c != 0) {
                    return c;
                }
                i = ei;
                j = ej;
            } else {
                if (ca != cb) {
                    return Character.compare(ca, cb);
                }
                i++;
                j++;
            }
        }
        int c = Integer.compare(a.length() - i, b.length() - j);
        return c != 0 ? c : a.compareTo(b);
    }

    private static int compareDigitRuns(String x, String y) {
        String sx = stripZeros(x);
        String sy = stripZeros(y);
        if (sx.length() != sy.length()) {
            return Integer.compare(sx.length(), sy.length());
        }
        return sx.compareTo(sy);
    }

    private static String stripZeros(String s) {
        int k = 0;
        while (k < s.length() - 1 && s.charAt(k) == '0') {
            k++;
        }
        return s.substring(k);
    }

    private static int runEnd(String s, int from) {
        int k = from;
        while (k < s.length() && isDigit(s.charAt(k))) {
            k++;
        }
        return k;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
