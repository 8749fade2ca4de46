package dev.sluice.dbd.store;

import dev.sluice.common.tres.Tres;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A TRES limit changed as slurmdbd changes one (compat 195): the TRES named take their new
 * counts, a count of -1 removes its TRES, the others stay. The result is kept with the names in
 * alphabetical order, as 22.05 lists such limits ({@code cpu=3,gres/gpu=1,mem=1000M,node=1}: GRES
 * between cpu and mem; compat 231); nothing left is no limit at all. Pure.
 */
final class TresLimitText {
    private TresLimitText() {}

    /**
     * @param stored the limit as it stands, null or empty for none
     * @param given {@code name=count,...} as sacctmgr sends it (counts already numbers)
     * @return the new limit, null when no TRES is left
     * @throws IllegalArgumentException for an item of {@code given} that is no {@code name=count}
     */
    static String merge(String stored, String given) {
        Map<String, Long> out = new LinkedHashMap<>(lenient(stored));
        for (String item : given.split(",")) {
            if (item.isBlank()) {
                continue;
            }
            int eq = item.indexOf('=');
            String name = eq < 0 ? item.strip() : item.substring(0, eq).strip().toLowerCase(java.util.Locale.ROOT);
            String count = eq < 0 ? "" : item.substring(eq + 1).strip();
            if (count.equals("-1")) {
                out.remove(name);
            } else {
                out.putAll(Tres.parse(name + "=" + count).asMap());
            }
        }
        return out.isEmpty() ? null : Tres.of(out).formatByName();
    }

    /** A stored limit; one written before limits were checked and that does not parse counts as none. */
    private static Map<String, Long> lenient(String stored) {
        if (stored == null || stored.isBlank()) {
            return Map.of();
        }
        try {
            return Tres.parse(stored).asMap();
        } catch (IllegalArgumentException e) {
            return Map.of();
        }
    }
}
