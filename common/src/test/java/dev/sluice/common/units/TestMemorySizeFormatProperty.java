package dev.sluice.common.units;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/**
 * The fast path for halves (a node's 64000M prints as 62.50G without a Formatter) prints what
 * {@code %.2f} prints: every size is checked against the definition, Slurm's exact-unit rule
 * followed by {@code %.2f} whenever the value is not whole.
 */
class TestMemorySizeFormatProperty {
    private static String definition(long megabytes) {
        if (megabytes == 0) {
            return "0";
        }
        double num = megabytes;
        int unit = 0;
        while (num >= 1024 && unit < 3 && ((long) num) % 512 == 0) {
            num /= 1024;
            unit++;
        }
        char u = "MGTP".charAt(unit);
        return (long) num == num
                ? (long) num + String.valueOf(u)
                : String.format(java.util.Locale.ROOT, "%.2f%c", num, u);
    }

    @Property
    void formatsAsTheDefinition(@ForAll @LongRange(min = 0, max = 1L << 50) long megabytes) {
        assertThat(MemorySize.format(megabytes)).isEqualTo(definition(megabytes));
    }

    @Property
    void halvesAndOtherFractionsAsTheDefinition(
            @ForAll @LongRange(min = 1, max = 1L << 30) long units, @ForAll @IntRange(min = 0, max = 3) int extra) {
        // Multiples of 512 MB (halves of a G), and a few odd ones above them.
        long megabytes = units * 512 + extra;
        assertThat(MemorySize.format(megabytes)).isEqualTo(definition(megabytes));
    }
}
