package dev.sluice.cli.view;

import dev.sluice.common.time.TimeLimit;

/** The wire's 32-bit time-limit sentinels, as Slurm's {@code NO_VAL} and {@code INFINITE}. */
public final class Limits {
    /** {@code JobSpec.time_limit_minutes} when no {@code --time} was given (Slurm's NO_VAL). */
    public static final int WIRE_NOT_SET = 0xfffffffe;
    /** {@code UNLIMITED} on the wire (Slurm's INFINITE). */
    public static final int WIRE_INFINITE = 0xffffffff;

    private Limits() {}

    /** Minutes as {@link TimeLimit} counts them, from an unsigned wire value. */
    public static long fromWire(int minutes) {
        if (minutes == WIRE_INFINITE) {
            return TimeLimit.INFINITE;
        }
        if (minutes == WIRE_NOT_SET) {
            return TimeLimit.NOT_SET;
        }
        return Integer.toUnsignedLong(minutes);
    }

    public static int toWire(long minutes) {
        if (minutes == TimeLimit.INFINITE) {
            return WIRE_INFINITE;
        }
        if (minutes == TimeLimit.NOT_SET) {
            return WIRE_NOT_SET;
        }
        if (minutes < 0 || minutes >= 0xfffffffeL) {
            throw new IllegalArgumentException("time limit of " + minutes + " minutes is too large");
        }
        return (int) minutes;
    }
}
