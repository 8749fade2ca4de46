package dev.sluice.common.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TestJobState {
    @Test
    void parsesLongAndCompactNamesInAnyCase() {
        assertThat(JobState.parse("pd")).contains(JobState.PENDING);
        assertThat(JobState.parse(" Running ")).contains(JobState.RUNNING);
        assertThat(JobState.parse("OOM")).contains(JobState.OUT_OF_MEMORY);
        assertThat(JobState.parse("CD")).contains(JobState.COMPLETED);
        assertThat(JobState.parse("done")).isEmpty();
    }

    @Test
    void activeIsWhatHasNotFinished() {
        assertThat(JobState.SUSPENDED.isActive()).isTrue();
        assertThat(JobState.SUSPENDED.holdsResources()).isTrue();
        assertThat(JobState.PENDING.holdsResources()).isFalse();
        assertThat(JobState.TIMEOUT.isActive()).isFalse();
    }
}
