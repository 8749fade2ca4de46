package dev.sluice.cli.command.sacct;

import static java.util.Objects.requireNonNull;

import dev.sluice.cli.UserDirectory;
import dev.sluice.common.units.MemorySize;
import java.time.ZoneId;

/**
 * What a field's value depends on besides its row: the zone times print in, the time that ends
 * running work's elapsed time, the names of uids and gids, and {@code --units} (0: Slurm's
 * own choice of unit for each memory value).
 */
record SacctContext(ZoneId zone, long now, UserDirectory users, char unit) {
    SacctContext {
        requireNonNull(zone, "zone is null");
        requireNonNull(users, "users is null");
        if (unit != 0 && "KMGTP".indexOf(unit) < 0) {
            throw new IllegalArgumentException("not a unit of K, M, G, T, P: " + unit);
        }
    }

    /** Megabytes as sacct prints memory with these units ({@code 8000M}, {@code 1.50G}). */
    String memory(long megabytes) {
        return unit == 0 ? MemorySize.format(megabytes) : MemorySize.format(megabytes, unit);
    }
}
