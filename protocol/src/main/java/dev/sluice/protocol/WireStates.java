package dev.sluice.protocol;

import dev.sluice.common.slurm.JobState;
import java.util.Optional;

/**
 * The wire's state enums and {@code common.slurm}'s, which name them (the proto values carry
 * the same names). The one mapping, so that every side prints a state as Slurm does from
 * {@code common}.
 */
public final class WireStates {
    private WireStates() {}

    /** The state a wire value stands for; empty for an unset or unknown one. */
    public static Optional<JobState> jobState(dev.sluice.protocol.v1.JobState wire) {
        return switch (wire) {
            // No job is in it: only accounting's record of a run a requeue ended (JobStates).
            case JOB_STATE_UNSPECIFIED, UNRECOGNIZED, REQUEUED -> Optional.empty();
            default -> Optional.of(JobState.valueOf(wire.name()));
        };
    }

    public static dev.sluice.protocol.v1.JobState toWire(JobState state) {
        return dev.sluice.protocol.v1.JobState.valueOf(state.name());
    }
}
