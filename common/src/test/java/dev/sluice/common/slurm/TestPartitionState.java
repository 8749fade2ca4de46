package dev.sluice.common.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TestPartitionState {
    @Test
    void parsesAnyCaseAndSaysWhatItAllows() {
        assertThat(PartitionState.parse("inactive")).contains(PartitionState.INACTIVE);
        assertThat(PartitionState.parse("Up")).contains(PartitionState.UP);
        assertThat(PartitionState.parse("sideways")).isEmpty();
        assertThat(PartitionState.DOWN.acceptsJobs()).isTrue();
        assertThat(PartitionState.DOWN.runsJobs()).isFalse();
        assertThat(PartitionState.DRAIN.acceptsJobs()).isFalse();
        assertThat(PartitionState.INACTIVE.sinfoName()).isEqualTo("inact");
    }
}
