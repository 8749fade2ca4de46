package dev.sluice.common.time;

/**
 * Durations in seconds as {@code squeue} prints elapsed and remaining time ({@code %M}, {@code %L}):
 * {@code M:SS} under an hour, {@code H:MM:SS} under a day, {@code D-HH:MM:SS} beyond. Negative
 * values and values above one year print {@code INVALID}, as squeue does.
 */
public final class Elapsed {

    static final long YEAR_SECONDS = 365L * 24 * 3600;

    private Elapsed() {}

    public static String format(long seconds) {
        if (seconds < 0 || seconds > YEAR_SECONDS) {
            return "INVALID";
        }
        return formatUnchecked(seconds);
    }

    /** The same layout without squeue's one-year sanity bound (sinfo prints long limits as-is). */
    static String formatUnchecked(long seconds) {
        long s = seconds % 60;
        long m = (seconds / 60) % 60;
        long h = (seconds / 3600) % 24;
        long d = seconds / 86400;
        if (d > 0) {
            return String.format("%d-%02d:%02d:%02d", d, h, m, s);
        }
        if (h > 0) {
            return String.format("%d:%02d:%02d", h, m, s);
        }
        return String.format("%d:%02d", m, s);
    }
}
