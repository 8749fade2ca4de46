package dev.sluice.common.slurm;

import java.util.Optional;

/**
 * A user's AdminLevel in accounting, as sacctmgr shows it and slurmrestd's {@code
 * administrator_level} names it: {@code None}, {@code Operator}, {@code Administrator}.
 */
public enum AdminLevel {
    NONE("None"),
    OPERATOR("Operator"),
    ADMINISTRATOR("Administrator");

    private final String text;

    AdminLevel(String text) {
        this.text = text;
    }

    /** As Slurm writes it. */
    public String text() {
        return text;
    }

    /** Operators and administrators may change accounting (and list wckeys). */
    public boolean atLeastOperator() {
        return this != NONE;
    }

    /** The level Slurm writes so (exactly: {@code Operator}); empty for anything else. */
    public static Optional<AdminLevel> of(String text) {
        for (AdminLevel l : values()) {
            if (l.text.equals(text)) {
                return Optional.of(l);
            }
        }
        return Optional.empty();
    }
}
