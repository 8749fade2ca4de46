package dev.sluice.common.slurm;

import java.util.Locale;

/**
 * A node's base state as Slurm prints it ({@code scontrol show node}'s {@code State=} before the
 * flags), with sinfo's long ({@code %T}) and compact ({@code %t}) names and Slurm's numeric value
 * (slurm.h), which orders sinfo's lines. The flags are {@link NodeFlag}s; {@link NodeStatus}
 * combines both as sinfo and scontrol print them.
 */
public enum NodeState {
    UNKNOWN(0, "unknown", "unk"),
    DOWN(1, "down", "down"),
    IDLE(2, "idle", "idle"),
    ALLOCATED(3, "allocated", "alloc"),
    ERROR(4, "error", "err"),
    MIXED(5, "mixed", "mix"),
    FUTURE(6, "future", "futr");

    private final int value;
    private final String longName;
    private final String compactName;

    NodeState(int value, String longName, String compactName) {
        this.value = value;
        this.longName = longName;
        this.compactName = compactName;
    }

    /** Slurm's numeric base state. */
    public int value() {
        return value;
    }

    /** sinfo {@code %T}'s word for the state alone: {@code idle}, {@code allocated}. */
    public String longName() {
        return longName;
    }

    /** sinfo {@code %t}'s word for the state alone: {@code idle}, {@code alloc}. */
    public String compactName() {
        return compactName;
    }

    /** Running work: what makes a drained node draining. */
    public boolean busy() {
        return this == ALLOCATED || this == MIXED;
    }

    /**
     * A base state as the wire or a user names it: {@code IDLE}, {@code alloc}, {@code MIX} in
     * any case; an empty or unknown name is {@link #UNKNOWN}.
     */
    public static NodeState parse(String name) {
        String n = name.strip().toUpperCase(Locale.ROOT);
        return switch (n) {
            case "ALLOC" -> ALLOCATED;
            case "MIX" -> MIXED;
            default -> {
                for (NodeState s : values()) {
                    if (s.name().equals(n)) {
                        yield s;
                    }
                }
                yield UNKNOWN;
            }
        };
    }
}
