package dev.sluice.dbd.model;

/**
 * Slurm's special step ids and the order sacct lists steps in: the batch script, then the
 * extern step, then numbered steps ascending.
 */
public final class StepOrder {
    /** SLURM_BATCH_SCRIPT as an unsigned 32-bit id. */
    public static final int BATCH = 0xfffffffb;
    /** SLURM_EXTERN_CONT. */
    public static final int EXTERN = 0xfffffffc;
    /** SLURM_INTERACTIVE_STEP. */
    public static final int INTERACTIVE = 0xfffffffa;

    private StepOrder() {}

    public static int compare(int a, int b) {
        return Long.compare(rank(a), rank(b));
    }

    private static long rank(int id) {
        return switch (id) {
            case BATCH -> -3;
            case EXTERN -> -2;
            case INTERACTIVE -> -1;
            default -> Integer.toUnsignedLong(id);
        };
    }

    /** The step part of {@code 12.batch}, {@code 12.extern}, {@code 12.0}. */
    public static String suffix(int id) {
        return switch (id) {
            case BATCH -> "batch";
            case EXTERN -> "extern";
            case INTERACTIVE -> "interactive";
            default -> Integer.toUnsignedString(id);
        };
    }
}
