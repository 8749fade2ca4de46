package dev.sluice.cli.command.squeue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.testing.CommandFixture;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.GetJobsResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** squeue leaves finished jobs to the controller unless -t or -j could show them. */
class TestSqueueActiveOnly {
    @RegisterExtension
    final CommandFixture cli = new CommandFixture(r -> ClientResponse.newBuilder()
            .setGetJobs(GetJobsResponse.getDefaultInstance())
            .build());

    private boolean activeOnlyAsked(String... args) {
        cli.run(new SqueueCommand(), args);
        return cli.controller().requests().getLast().getGetJobs().getActiveOnly();
    }

    @Test
    void theDefaultListingAsksOnlyForUnfinishedJobs() {
        assertThat(activeOnlyAsked()).isTrue();
        assertThat(activeOnlyAsked("-u", "alice", "-p", "gpu")).isTrue();
    }

    @Test
    void statesOrJobIdsMayShowFinishedJobs() {
        assertThat(activeOnlyAsked("-t", "all")).isFalse();
        assertThat(activeOnlyAsked("-t", "CD")).isFalse();
        assertThat(activeOnlyAsked("-j", "5")).isFalse();
    }
}
