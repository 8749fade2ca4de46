package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A step srun started and has not said it ended.
 *
 * @param exclusive {@code srun --exclusive}: its CPUs and devices are held against other
 *     exclusive steps
 * @param srunHost where its srun runs ({@code scontrol show step}'s SrunHost:Pid)
 * @param cancelled {@code scancel J.S} ended it: it ends CANCELLED however its tasks exit
 */
public record RunningStep(
        JobStep step, boolean exclusive, List<StepShare> shares, String srunHost, int srunPid, boolean cancelled) {
    public RunningStep {
        requireNonNull(step, "step is null");
        shares = List.copyOf(shares);
        requireNonNull(srunHost, "srunHost is null");
    }

    /** A step just started. */
    public static RunningStep started(
            JobStep step, boolean exclusive, List<StepShare> shares, String srunHost, int srunPid) {
        return new RunningStep(step, exclusive, shares, srunHost, srunPid, false);
    }

    /** The same step, cancelled. */
    public RunningStep asCancelled() {
        return new RunningStep(step, exclusive, shares, srunHost, srunPid, true);
    }
}
