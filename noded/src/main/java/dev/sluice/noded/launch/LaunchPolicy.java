package dev.sluice.noded.launch;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * What slurm.conf says about how jobs start here, the part {@code scontrol reconfigure} may
 * change while the daemon runs: the {@code Prolog=} and {@code Epilog=} programs and whether
 * tasks are bound to their CPUs ({@code TaskPlugin}). A launch reads it once, when it starts, so
 * a job runs under one policy from start to end.
 */
public record LaunchPolicy(List<String> prolog, List<String> epilog, CpuBinding.Policy cpuBinding) {
    /** No Prolog, no Epilog, no binding: Slurm's defaults. */
    public static final LaunchPolicy NONE = new LaunchPolicy(List.of(), List.of(), CpuBinding.Policy.NONE);

    public LaunchPolicy {
        prolog = List.copyOf(prolog);
        epilog = List.copyOf(epilog);
        requireNonNull(cpuBinding, "cpuBinding is null");
    }
}
