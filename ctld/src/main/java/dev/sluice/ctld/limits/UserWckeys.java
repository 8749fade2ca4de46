package dev.sluice.ctld.limits;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The users' wckeys on this cluster as sluice-dbd last gave them: which each user holds and
 * which is its default ({@code sacctmgr add user ... wckeys= defaultwckey=}).
 *
 * @param defaults each user's default wckey (users without one are absent)
 * @param held the wckeys each user holds
 */
public record UserWckeys(Map<String, String> defaults, Map<String, Set<String>> held) {
    public static final UserWckeys NONE = new UserWckeys(Map.of(), Map.of());

    public UserWckeys {
        defaults = Map.copyOf(defaults);
        Map<String, Set<String>> copy = new HashMap<>();
        held.forEach((user, names) -> copy.put(user, Set.copyOf(names)));
        held = Map.copyOf(copy);
    }

    /** One user's wckey: {@code user}, {@code name}, and whether it is that user's default. */
    public record Held(String user, String name, boolean isDefault) {}

    /** The wckeys as listed, one entry per user and name. */
    public static UserWckeys of(List<Held> wckeys) {
        Map<String, String> defaults = new HashMap<>();
        Map<String, Set<String>> held = new HashMap<>();
        for (Held w : wckeys) {
            held.computeIfAbsent(w.user(), u -> new java.util.HashSet<>()).add(w.name());
            if (w.isDefault()) {
                defaults.put(w.user(), w.name());
            }
        }
        return new UserWckeys(defaults, held);
    }

    public Optional<String> defaultOf(String user) {
        return Optional.ofNullable(defaults.get(user));
    }

    public boolean holds(String user, String name) {
        return held.getOrDefault(user, Set.of()).contains(name);
    }
}
