package dev.sluice.common.slurm;

import java.util.Locale;
import java.util.Optional;

/**
 * A node state flag as Slurm prints it after the base state ({@code DOWN+DRAIN+NOT_RESPONDING}),
 * declared in the order of their bits in slurm.h (scontrol prints them in the order of Slurm's
 * name table instead: {@link NodeStatus#scontrolName()}). Each may carry the suffix sinfo appends
 * to a state name ({@code idle*}: not responding, {@code mix$}: in a maintenance reservation) and
 * the bit that orders sinfo's lines ("decreasing state value, flags included"); a bit of 0
 * takes no part in that order.
 */
public enum NodeFlag {
    RESERVED("", 0x20),
    UNDRAIN("", 0),
    CLOUD("", 0),
    RESUME("", 0),
    DRAIN("", 0x200),
    COMPLETING("", 0x400),
    NOT_RESPONDING("*", 0x800),
    POWERED_DOWN("~", 0x1000),
    FAIL("", 0x2000),
    POWERING_UP("#", 0x4000),
    MAINT("$", 0x8000),
    REBOOT_REQUESTED("@", 0x10000),
    REBOOT_CANCEL("", 0),
    POWERING_DOWN("%", 0x40000),
    DYNAMIC_FUTURE("", 0),
    REBOOT_ISSUED("^", 0x100000),
    PLANNED("-", 0x200000),
    INVALID_REG("", 0),
    POWER_DOWN("!", 0x800000),
    POWER_UP("", 0),
    POWER_DRAIN("", 0),
    DYNAMIC_NORM("", 0);

    private final String suffix;
    private final int bit;

    NodeFlag(String suffix, int bit) {
        this.suffix = suffix;
        this.bit = bit;
    }

    /** What sinfo appends to the state name for this condition; empty for none. */
    public String suffix() {
        return suffix;
    }

    /** Its part of Slurm's numeric state, as sinfo orders by it; 0 for none. */
    public int bit() {
        return bit;
    }

    /** The name scontrol prints after the base state ({@code MAINTENANCE} for MAINT). */
    public String scontrolName() {
        return this == MAINT ? "MAINTENANCE" : name();
    }

    /** A flag by its name in any case; empty for one Slurm does not print. */
    public static Optional<NodeFlag> parse(String name) {
        String upper = name.strip().toUpperCase(Locale.ROOT);
        if (upper.equals("MAINTENANCE")) {
            return Optional.of(MAINT);
        }
        try {
            return Optional.of(valueOf(upper));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
