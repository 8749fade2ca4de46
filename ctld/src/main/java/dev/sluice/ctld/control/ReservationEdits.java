package dev.sluice.ctld.control;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** {@code scontrol update reservation}'s {@code +=} and {@code -=} on its users and accounts. */
final class ReservationEdits {
    private ReservationEdits() {}

    /**
     * {@code Users+=} / {@code Users-=} (and the accounts'): names added at the end unless there
     * already, names taken away whether there or not; each must be known ({@code check}).
     */
    static List<String> edit(
            List<String> have, String added, String removed, java.util.function.Consumer<String> check) {
        Set<String> out = new LinkedHashSet<>(have);
        for (String name : names(added)) {
            check.accept(name);
            out.add(name);
        }
        for (String name : names(removed)) {
            check.accept(name);
            out.remove(name);
        }
        return List.copyOf(out);
    }

    private static List<String> names(String typed) {
        if (typed == null) {
            return List.of();
        }
        return java.util.Arrays.stream(typed.split(","))
                .map(String::strip)
                .filter(n -> !n.isEmpty())
                .toList();
    }
}
