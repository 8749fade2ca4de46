package dev.sluice.ctld;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;

/** What a decision refused with: the Slurm error a user would see. */
public final class Refusals {
    private Refusals() {}

    /**
     * The error {@code action} was refused with.
     *
     * @throws AssertionError when it was not refused
     */
    public static ErrorCode refusal(Runnable action) {
        try {
            action.run();
        } catch (SlurmException e) {
            return e.code();
        }
        throw new AssertionError("not refused");
    }
}
