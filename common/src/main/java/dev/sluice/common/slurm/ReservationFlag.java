package dev.sluice.common.slurm;

import java.util.Locale;
import java.util.Optional;

/**
 * The flags of an advance reservation ({@code scontrol create reservation Flags=}), in the order
 * Slurm 22.05 prints them ({@code Flags=MAINT,FLEX,OVERLAP,IGNORE_JOBS,WEEKLY,SPEC_NODES,...},
 * seen on the real cluster). {@link #SPEC_NODES} and {@link #ALL_NODES} are not typed: the
 * controller sets them when {@code Nodes=} names nodes, or {@code ALL}.
 */
public enum ReservationFlag {
    /** Maintenance: may overlap other reservations; waiting jobs show "Reserved for maintenance". */
    MAINT,
    /** Jobs in the reservation may also use nodes outside it. */
    FLEX,
    /** May be created on resources another reservation already holds. */
    OVERLAP,
    /** Created even on nodes running jobs that would still run when it starts. */
    IGNORE_JOBS,
    /** Repeats every hour at the same minute. */
    HOURLY,
    /** Repeats every day at the same time. */
    DAILY,
    /** Repeats at the same time on Monday to Friday. */
    WEEKDAY,
    /** Repeats at the same time on Saturday and Sunday. */
    WEEKEND,
    /** Repeats every week at the same time. */
    WEEKLY,
    SPEC_NODES,
    ALL_NODES,
    /** For licenses or burst buffers only: its jobs may use any node. */
    ANY_NODES,
    /** Jobs of its users that name no reservation may run in it. */
    MAGNETIC;

    /** The flags that make a reservation repeat once a window ends. */
    public static final java.util.Set<ReservationFlag> REPEATS =
            java.util.Collections.unmodifiableSet(java.util.EnumSet.of(HOURLY, DAILY, WEEKDAY, WEEKEND, WEEKLY));

    /** Whether a user may type it in {@code Flags=}. */
    public boolean typed() {
        return this != SPEC_NODES && this != ALL_NODES;
    }

    /** The flag named (any case), when a user may type it. */
    public static Optional<ReservationFlag> parse(String name) {
        for (ReservationFlag f : values()) {
            if (f.typed() && f.name().equals(name.strip().toUpperCase(Locale.ROOT))) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }
}
