package dev.sluice.ctld.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ctld.state.ClusterState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The side file controllers kept their starts in before the journal did: read once, then gone. */
class TestPriorityStartsUpgrade {
    @TempDir
    Path dir;

    @Test
    void theSideFilesStartsAreReadOldestFirstAndItsJunkSkipped() throws Exception {
        Files.writeString(dir.resolve(PriorityStartsFile.FILE), "300\n100\n\nnot a time\n200\n");
        assertThat(PriorityStartsFile.read(dir)).containsExactly(100L, 200L, 300L);
        PriorityStartsFile.remove(dir);
        assertThat(dir.resolve(PriorityStartsFile.FILE)).doesNotExist();
        assertThat(PriorityStartsFile.read(dir)).isEmpty();
    }

    @Test
    void earlierStartsJoinBothSourcesBeforeThisStartAndKeepTheLatest() {
        assertThat(ControllerCore.earlierStarts(List.of(100L, 300L), List.of(200L, 300L, 900L), 500))
                .containsExactly(100L, 200L, 300L);
        List<Long> many = LongStream.rangeClosed(1, 150).boxed().toList();
        List<Long> kept = ControllerCore.earlierStarts(many, List.of(), 1_000);
        assertThat(kept).hasSize(ClusterState.KEPT_CONTROLLER_STARTS - 1).endsWith(150L);
    }
}
