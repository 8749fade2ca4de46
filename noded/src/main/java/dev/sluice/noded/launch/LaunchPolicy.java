package dev.sluice.noded.launch;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * What slurm.conf says about how jobs start here, the part {@code scontrol reconfigure} may
 * change while the daemon runs: the {@code Prolog=} and {@code Epilog=} programs, whether tasks
 * are bound to their CPUs ({@code TaskPlugin}), and whether the Prolog runs at allocation
 * ({@code PrologFlags=Alloc}: the node tells the controller when it is done). A launch reads it
 * once, when it starts, so a job runs under one policy from start to end.
 */
public record LaunchPolicy(
        List<String> prolog, List<String> epilog, CpuBinding.Policy cpuBinding, boolean prologAtAllocation) {
    /** No Prolog, no Epilog, no binding: Slurm's defaults. */
    public static final LaunchPolicy NONE = new LaunchPolicy(List.of(), List.of(), CpuBinding.Policy.NONE, false);

    public LaunchPolicy {
        prolog = List.copyOf(prolog);
        epilog = List.copyOf(epilog);
        requireNonNull(cpuBinding, "cpuBinding is null");
    }

    /** Prolog and Epilog, without binding, the Prolog run at launch (tests). */
    public static LaunchPolicy scripts(List<String> prolog, List<String> epilog) {
        return new LaunchPolicy(prolog, epilog, CpuBinding.Policy.NONE, false);
    }

    /** The same, the controller waiting for the Prolog ({@code PrologFlags=Alloc}) or not. */
    public LaunchPolicy withPrologAtAllocation(boolean value) {
        return new LaunchPolicy(prolog, epilog, cpuBinding, value);
    }
}
