package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A step srun started and has not said it ended.
 *
 * @param exclusive {@code srun --exclusive}: its CPUs and devices are held against other
 *     exclusive steps
 * @param srunHost where its srun runs ({@code scontrol show step}'s SrunHost:Pid)
 */
public record RunningStep(JobStep step, boolean exclusive, List<StepShare> shares, String srunHost, int srunPid) {
    public RunningStep {
        requireNonNull(step, "step is null");
        shares = List.copyOf(shares);
        requireNonNull(srunHost, "srunHost is null");
    }
}
