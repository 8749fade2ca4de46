package dev.sluice.common.slurm;

import dev.sluice.common.time.TimeLimit;

/**
 * Slurm's 32-bit sentinels and the conversions between them and {@link TimeLimit}'s minutes.
 * Slurm keeps limits in {@code uint32_t} with two reserved values: {@code NO_VAL} ("not given":
 * a default applies) and {@code INFINITE} ("no limit"). Protobuf carries them in an int32 (the
 * {@code *32} forms: -2 and -1); the controller keeps them in a long ({@link #NO_VAL},
 * {@link #INFINITE}); the parsers and printers of {@code common.time} use {@link TimeLimit#NOT_SET}
 * and {@link TimeLimit#INFINITE}.
 */
public final class SlurmLimits {
    /** Slurm's {@code NO_VAL}: no value was given. */
    public static final long NO_VAL = 0xfffffffeL;

    /** Slurm's {@code INFINITE}: no limit. */
    public static final long INFINITE = 0xffffffffL;

    /** {@link #NO_VAL} as an int32 field carries it. */
    public static final int NO_VAL32 = (int) NO_VAL;

    /** {@link #INFINITE} as an int32 field carries it. */
    public static final int INFINITE32 = (int) INFINITE;

    /** The largest value of Slurm's unsigned 32-bit ids and counters (job ids, priorities). */
    public static final long MAX_UINT32 = 0xffffffffL;

    private SlurmLimits() {}

    /** Whether {@code minutes} (uint32 scale) is an actual limit rather than NO_VAL or INFINITE. */
    public static boolean isLimit(long minutes) {
        return minutes >= 0 && minutes < NO_VAL;
    }

    /** {@link TimeLimit}'s minutes on Slurm's uint32 scale: INFINITE and NOT_SET become the sentinels. */
    public static long toUint32(long minutes) {
        if (minutes == TimeLimit.INFINITE) {
            return INFINITE;
        }
        if (minutes == TimeLimit.NOT_SET) {
            return NO_VAL;
        }
        return minutes;
    }

    /** Minutes as {@link TimeLimit} counts them, from an unsigned int32 wire value. */
    public static long fromWire(int minutes) {
        if (minutes == INFINITE32) {
            return TimeLimit.INFINITE;
        }
        if (minutes == NO_VAL32) {
            return TimeLimit.NOT_SET;
        }
        return Integer.toUnsignedLong(minutes);
    }

    /**
     * {@link TimeLimit}'s minutes as an unsigned int32 wire value.
     *
     * @throws IllegalArgumentException for a limit that does not fit below the sentinels
     */
    public static int toWire(long minutes) {
        if (minutes == TimeLimit.INFINITE) {
            return INFINITE32;
        }
        if (minutes == TimeLimit.NOT_SET) {
            return NO_VAL32;
        }
        if (minutes < 0 || minutes >= NO_VAL) {
            throw new IllegalArgumentException("time limit of " + minutes + " minutes is too large");
        }
        return (int) minutes;
    }
}
