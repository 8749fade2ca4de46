package dev.sluice.dbd.model;

import dev.sluice.common.slurm.StepIds;

/**
 * Slurm's special step ids and the order sacct lists steps in: the batch script, then the
 * extern step, then numbered steps ascending.
 */
public final class StepOrder {
    public static final int BATCH = StepIds.BATCH;
    public static final int EXTERN = StepIds.EXTERN;
    public static final int INTERACTIVE = StepIds.INTERACTIVE;

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
        return StepIds.name(id);
    }
}
