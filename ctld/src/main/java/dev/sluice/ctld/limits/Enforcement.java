package dev.sluice.ctld.limits;

import java.util.List;
import java.util.Locale;

/**
 * What {@code AccountingStorageEnforce} asks for. As in Slurm, {@code limits}, {@code qos} and
 * {@code wckeys} imply {@code associations}, and {@code safe} implies {@code limits}; {@code all}
 * is every one of them. {@code wckeys} also turns on TrackWCKey ({@link PolicyView#tracksWckeys}).
 */
public record Enforcement(boolean associations, boolean limits, boolean qos, boolean wckeys) {
    public static final Enforcement NONE = new Enforcement(false, false, false, false);

    /** @param words the comma-separated values, already checked by the slurm.conf reader */
    public static Enforcement parse(List<String> words) {
        boolean assoc = false;
        boolean limits = false;
        boolean qos = false;
        boolean wckeys = false;
        for (String w : words) {
            switch (w.strip().toLowerCase(Locale.ROOT)) {
                case "associations" -> assoc = true;
                case "limits", "safe" -> limits = true;
                case "qos" -> qos = true;
                case "wckeys" -> wckeys = true;
                case "all" -> {
                    assoc = true;
                    limits = true;
                    qos = true;
                    wckeys = true;
                }
                default -> {
                    // nojobs, nosteps: nothing the controller checks at submit.
                }
            }
        }
        return new Enforcement(assoc || limits || qos || wckeys, limits, qos, wckeys);
    }

    public boolean any() {
        return associations;
    }
}
