package dev.sluice.common.slurm;

/**
 * Slurm's special step ids, as unsigned 32-bit numbers (SLURM_INTERACTIVE_STEP,
 * SLURM_BATCH_SCRIPT, SLURM_EXTERN_CONT), and how the commands name a step: {@code batch},
 * {@code extern}, {@code interactive}, else its number.
 */
public final class StepIds {
    public static final int INTERACTIVE = 0xfffffffa;
    public static final int BATCH = 0xfffffffb;
    public static final int EXTERN = 0xfffffffc;

    private StepIds() {}

    /** {@code batch}, {@code extern}, {@code interactive}, or the number: {@code 0}, {@code 12}. */
    public static String name(int stepId) {
        return switch (stepId) {
            case BATCH -> "batch";
            case EXTERN -> "extern";
            case INTERACTIVE -> "interactive";
            default -> Integer.toUnsignedString(stepId);
        };
    }
}
