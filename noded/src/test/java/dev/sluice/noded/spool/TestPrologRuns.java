package dev.sluice.noded.spool;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the spool keeps of allocation Prologs across a restart of the node daemon. */
class TestPrologRuns {
    @TempDir
    Path dir;

    private PrologRuns open() throws Exception {
        return new PrologRuns(dir.resolve("prologs"));
    }

    @Test
    void aRunIsClaimedOnceAcrossRestarts() throws Exception {
        PrologRuns runs = open();
        PrologRuns.Run run = new PrologRuns.Run(7, 0);
        assertThat(runs.claim(run)).isTrue();
        assertThat(runs.claim(run)).isFalse();
        assertThat(open().claim(run)).isFalse();
        assertThat(open().claim(new PrologRuns.Run(7, 1))).isTrue();
    }

    @Test
    void untoldRunsAreThoseNotYetToldWithTheirProcessOrStatus() throws Exception {
        PrologRuns runs = open();
        PrologRuns.Run running = new PrologRuns.Run(1, 0);
        PrologRuns.Run ended = new PrologRuns.Run(2, 0);
        PrologRuns.Run told = new PrologRuns.Run(3, 0);
        for (PrologRuns.Run r : new PrologRuns.Run[] {running, ended, told}) {
            runs.claim(r);
        }
        PrologRuns.ProcessMark mark = new PrologRuns.ProcessMark(4242, 1_700_000_000_000L);
        runs.started(running, mark);
        runs.ended(ended, 5);
        runs.ended(told, 0);
        runs.told(told);
        // Told twice (a notice sent again) changes nothing.
        runs.told(told);

        assertThat(open().untold())
                .containsExactlyInAnyOrder(
                        new PrologRuns.Standing(running, Optional.of(mark), Optional.empty()),
                        new PrologRuns.Standing(ended, Optional.empty(), Optional.of(5)));
        // A status recorded after the run was told does not bring it back.
        runs.ended(told, 9);
        assertThat(open().untold()).extracting(PrologRuns.Standing::run).doesNotContain(told);
    }

    @Test
    void onlyTheNewestRunsAreRemembered() throws Exception {
        PrologRuns runs = open();
        for (int job = 1; job <= PrologRuns.REMEMBERED + 2; job++) {
            assertThat(runs.claim(new PrologRuns.Run(job, 0))).isTrue();
        }
        try (Stream<Path> files = Files.list(dir.resolve("prologs"))) {
            assertThat(files.count()).isEqualTo(PrologRuns.REMEMBERED);
        }
        assertThat(runs.claim(new PrologRuns.Run(1, 0))).isTrue();
        assertThat(runs.claim(new PrologRuns.Run(PrologRuns.REMEMBERED + 2, 0))).isFalse();
    }

    @Test
    void filesThatNameNoRunAreLeftOut() throws Exception {
        Files.createDirectories(dir.resolve("prologs"));
        Files.writeString(dir.resolve("prologs/notes.run"), "");
        Files.writeString(dir.resolve("prologs/1.2.3.run"), "");
        assertThat(open().untold()).isEmpty();
    }
}
