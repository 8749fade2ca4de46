package dev.sluice.common.slurm;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A QOS's Flags= as sacctmgr 22.05 takes them: each comma-separated name matched without regard
 * to case and kept in sacctmgr's spelling and order; names it does not know are dropped, and a
 * value with no known name at all leaves the flags as they were ({@code Flags=-DenyOnLimit} on a
 * QOS with the flag keeps it; compat 272). {@code -1} clears them.
 */
public final class QosFlags {
    /** sacctmgr's spelling of each flag, in the order it prints them (compat 192). */
    public static final List<String> NAMES = List.of(
            "DenyOnLimit",
            "EnforceUsageThreshold",
            "NoDecay",
            "NoReserve",
            "OverPartQOS",
            "PartitionMaxNodes",
            "PartitionMinNodes",
            "PartitionTimeLimit",
            "RequiresReservation",
            "UsageFactorSafe",
            "Relative");

    private QosFlags() {}

    /** @return the flags to set (empty: clear them), or empty when the value sets nothing */
    public static Optional<List<String>> parse(String value) {
        if (value.strip().equals("-1")) {
            return Optional.of(List.of());
        }
        List<String> given = new ArrayList<>();
        for (String token : value.split(",")) {
            given.add(token.strip().toLowerCase(Locale.ROOT));
        }
        List<String> out = new ArrayList<>();
        for (String name : NAMES) {
            if (given.contains(name.toLowerCase(Locale.ROOT))) {
                out.add(name);
            }
        }
        return out.isEmpty() ? Optional.empty() : Optional.of(List.copyOf(out));
    }
}
