package dev.sluice.cli.command.squeue;

import static dev.sluice.cli.testing.TestingInvocations.confFor;
import static dev.sluice.cli.testing.TestingInvocations.invocation;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.testing.FakeController;
import dev.sluice.cli.testing.TestingInvocations;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.GetJobsResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** squeue leaves finished jobs to the controller unless -t or -j could show them. */
class TestSqueueActiveOnly {
    @TempDir
    Path dir;

    private boolean activeOnlyAsked(String... args) throws Exception {
        try (FakeController ctld = new FakeController(r -> ClientResponse.newBuilder()
                .setGetJobs(GetJobsResponse.getDefaultInstance())
                .build())) {
            Map<String, String> env = confFor(dir, ctld.port());
            TestingInvocations.run(new SqueueCommand(), invocation(dir, env, "", args));
            return ctld.requests().getLast().getGetJobs().getActiveOnly();
        }
    }

    @Test
    void theDefaultListingAsksOnlyForUnfinishedJobs() throws Exception {
        assertThat(activeOnlyAsked()).isTrue();
        assertThat(activeOnlyAsked("-u", "alice", "-p", "gpu")).isTrue();
    }

    @Test
    void statesOrJobIdsMayShowFinishedJobs() throws Exception {
        assertThat(activeOnlyAsked("-t", "all")).isFalse();
        assertThat(activeOnlyAsked("-t", "CD")).isFalse();
        assertThat(activeOnlyAsked("-j", "5")).isFalse();
    }
}
