package dev.sluice.common.slurm;

import java.util.Locale;
import java.util.Optional;

/**
 * A state {@code scontrol update NodeName=... State=} asks a node into, by the names scontrol
 * takes (its "Valid states are" list, plus DOWN and IDLE). Not a {@link NodeState}: RESUME and
 * UNDRAIN are moves between states, not states, and the controller decides which it carries out.
 */
public enum NodeStateRequest {
    DOWN,
    DRAIN,
    FAIL,
    FUTURE,
    IDLE,
    NORESP,
    POWER_DOWN,
    POWER_UP,
    RESUME,
    UNDRAIN;

    /** A state as scontrol and the REST API take it, in any case; empty for any other word. */
    public static Optional<NodeStateRequest> parse(String text) {
        try {
            return Optional.of(valueOf(text.strip().toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
