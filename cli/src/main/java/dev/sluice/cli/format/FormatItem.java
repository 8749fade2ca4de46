package dev.sluice.cli.format;

/**
 * One item of the {@code format=}/{@code -o} lists of sacct, sacctmgr and sreport:
 * {@code name[%[-]width]}. The width is read as C's {@code atoi} reads it, as those commands do:
 * a sign and leading digits, anything else 0 ({@code Name%abc} is width 0, {@code Name%12x} 12).
 *
 * @param name the field's name as typed
 * @param width the width after {@code %}; 0 when there is none or it does not read as a number
 * @param hasWidth whether the item had a {@code %}
 */
public record FormatItem(String name, int width, boolean hasWidth) {
    public static FormatItem parse(String item) {
        int pct = item.indexOf('%');
        if (pct < 0) {
            return new FormatItem(item, 0, false);
        }
        return new FormatItem(item.substring(0, pct), atoi(item.substring(pct + 1)), true);
    }

    /** C's atoi over at most nine digits (no overflow): an optional sign, then digits. */
    static int atoi(String s) {
        int i = 0;
        boolean negative = false;
        if (i < s.length() && (s.charAt(i) == '-' || s.charAt(i) == '+')) {
            negative = s.charAt(i) == '-';
            i++;
        }
        int start = i;
        while (i < s.length() && i - start < 9 && Character.isDigit(s.charAt(i))) {
            i++;
        }
        if (i == start) {
            return 0;
        }
        int n = Integer.parseInt(s.substring(start, i));
        return negative ? -n : n;
    }
}
