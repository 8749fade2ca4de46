package dev.sluice.cli.view;

import dev.sluice.common.slurm.JobStateFlag;
import dev.sluice.protocol.WireStates;
import dev.sluice.protocol.v1.JobState;
import java.util.Optional;

/**
 * Job states as the commands print a wire value: long ({@code PENDING}, squeue {@code %T},
 * scontrol {@code JobState=}) and compact ({@code PD}, squeue {@code %t}), from
 * {@code common.slurm.JobState}, which also parses the names users give to {@code squeue -t}.
 * An unset value prints as Slurm prints an unknown state.
 */
public final class JobStates {
    private JobStates() {}

    public static String longName(JobState state) {
        if (state == JobState.REQUEUED) {
            // Slurm's accounting stores the JOB_REQUEUE flag as the state of the run it ended.
            return JobStateFlag.REQUEUED.name();
        }
        return WireStates.jobState(state).map(Enum::name).orElse("UNKNOWN");
    }

    public static String compactName(JobState state) {
        if (state == JobState.REQUEUED) {
            return JobStateFlag.REQUEUED.compact();
        }
        return WireStates.jobState(state)
                .map(dev.sluice.common.slurm.JobState::compact)
                .orElse("?");
    }

    /** Pending, running and suspended jobs: what squeue lists when no state is asked for. */
    public static boolean isActive(JobState state) {
        return WireStates.jobState(state)
                .map(dev.sluice.common.slurm.JobState::isActive)
                .orElse(false);
    }

    /** A state named by its long or compact name, in any case ({@code pd}, {@code Running}). */
    public static Optional<JobState> parse(String name) {
        return dev.sluice.common.slurm.JobState.parse(name).map(WireStates::toWire);
    }

    /** As {@link #parse}, and REQUEUED (RQ): the state of the runs requeues ended (sacct -s). */
    public static Optional<JobState> parseAccounted(String name) {
        Optional<JobState> state = parse(name);
        if (state.isEmpty() && JobStateFlag.parse(name).orElse(null) == JobStateFlag.REQUEUED) {
            return Optional.of(JobState.REQUEUED);
        }
        return state;
    }
}
