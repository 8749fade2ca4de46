package dev.sluice.common.units;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Parsing follows sbatch(1) {@code --mem} (default unit MB, K/M/G/T, optional trailing B, KB
 * rounded up); formatting follows how Slurm prints TRES memory ({@code mem=16000M}, {@code mem=4G}).
 */
class TestMemorySize {

    @ParameterizedTest
    @CsvSource({
        "0,0",
        "100,100",
        "100M,100",
        "100mb,100",
        "4G,4096",
        "4gB,4096",
        "1T,1048576",
        "1K,1",
        "1024K,1",
        "1025K,2",
        "16000,16000"
    })
    void parses(String text, long mb) {
        assertThat(MemorySize.parseMegabytes(text)).isEqualTo(mb);
    }

    @ParameterizedTest
    @CsvSource({"''", "G", "-1", "1.5G", "4X", "4GiB", "4 G", "99999999999999999999", "9999999999999999T"})
    void rejects(String text) {
        assertThatThrownBy(() -> MemorySize.parseMegabytes(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Invalid memory specification");
    }

    @ParameterizedTest
    @CsvSource({
        "0,0",
        "1,1M",
        "1000,1000M",
        "1024,1G",
        "4096,4G",
        "16000,16000M",
        "1536,1.50G",
        "1048576,1T",
        "1572864,1.50T"
    })
    void formatsAsTresStrings(long mb, String expected) {
        assertThat(MemorySize.format(mb)).isEqualTo(expected);
    }

    /** Values sacct printed with --units on Slurm 22.05 (ReqMem of 1536M, 4096M, 16000M, ...). */
    @ParameterizedTest
    @CsvSource({
        "1536,K,1572864K",
        "1536,M,1536M",
        "1536,G,1.50G",
        "4096,G,4G",
        "16000,G,15.62G",
        "1152,G,1.12G",
        "1,G,0.00G",
        "24000,T,0.02T",
        "1536,T,0.00T",
        "24000,P,0.00P",
        "0,G,0"
    })
    void formatsInOneUnitAsSacctUnits(long mb, char unit, String expected) {
        assertThat(MemorySize.format(mb, unit)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"1280,1280M", "2560,2.50G", "7680,7.50G", "1152,1152M", "3072,3G"})
    void keepsMegabytesUnlessHalfAUnitDivides(long mb, String expected) {
        assertThat(MemorySize.format(mb)).isEqualTo(expected);
    }
}
