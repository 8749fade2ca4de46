package dev.sluice.noded.launch;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Filename patterns as documented in sbatch(1), "filename pattern". */
class TestOutputPattern {
    private static final OutputPattern.Context JOB =
            new OutputPattern.Context(123, "named", "alice", "node7", 0, 0, 0, "batch");

    @Test
    void defaultOutputName() {
        assertThat(OutputPattern.expand("slurm-%j.out", JOB)).isEqualTo("slurm-123.out");
    }

    @Test
    void everyDocumentedSpecifier() {
        assertThat(OutputPattern.expand("%x-%u-%N-%n-%%-%A", JOB)).isEqualTo("named-alice-node7-0-%-123");
    }

    @Test
    void zeroPaddingWidth() {
        // sbatch(1): "job%4j.out" → "job0128.out"
        assertThat(OutputPattern.expand("job%4j.out", new OutputPattern.Context(128, "x", "u", "n", 0, 0, 0, "batch")))
                .isEqualTo("job0128.out");
    }

    @Test
    void arrayTaskIdOutsideAnArrayIsNoVal() {
        assertThat(OutputPattern.expand("%a", JOB)).isEqualTo("4294967294");
    }

    @Test
    void unknownSpecifierAndTrailingPercentStay() {
        assertThat(OutputPattern.expand("a%qb%", JOB)).isEqualTo("a%qb%");
    }
}
