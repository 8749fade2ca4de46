package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestScenarioQueue {
    @TempDir
    Path dir;

    private Path scenario(String name, String... lines) throws IOException {
        return Files.write(dir.resolve(name + ".scn"), List.of(lines));
    }

    @Test
    void aSequenceIsOneLineInNameOrderAndTheLongestComesFirst() throws IOException {
        Path quick = scenario("001-quick", "# a comment", "sinfo");
        Path wckeysB = scenario("208-b", "# wckeys", "@sequence wckeys", "sacctmgr show wckey");
        Path slow = scenario("050-slow", "sbatch --wrap true", "@sleep 30");
        Path wckeysA = scenario("207-a", "@sequence wckeys", "@slurm.conf restart", "TrackWCKey=yes", "@end");
        Path restart = scenario("100-restart", "@slurm.conf restart", "@sleep 10", "@end", "squeue");

        List<String> lines = ScenarioQueue.of(List.of(quick, slow, restart, wckeysA, wckeysB))
                .lines();

        assertThat(lines)
                .containsExactly(
                        slow.toString(),
                        // 18.3 s for the two together, though each alone is shorter than 100
                        // (whose @sleep is inside the slurm.conf text, not a wait: 17.3 s)
                        wckeysA + "\t" + wckeysB,
                        restart.toString(),
                        quick.toString());
    }

    @Test
    void aDifferingScenarioOfASequenceRunsAgainWithItsWholeSequenceInNameOrder() throws IOException {
        Path quick = scenario("001-quick", "sinfo");
        Path saveA = scenario("161-a", "@sequence state-saves", "scontrol show reservation");
        Path other = scenario("162-other", "squeue");
        Path saveB = scenario("169-b", "@sequence state-saves", "scontrol show reservation");
        Path wckey = scenario("208-c", "@sequence wckeys", "sacctmgr show wckey");
        ScenarioQueue queue = ScenarioQueue.of(List.of(quick, saveA, other, saveB, wckey));

        assertThat(queue.withTheirSequences(List.of(quick, saveB))).containsExactly(quick, saveA, saveB);
        assertThat(queue.withTheirSequences(List.of(saveA, wckey, saveB))).containsExactly(saveA, saveB, wckey);
        assertThat(queue.withTheirSequences(List.of(other))).containsExactly(other);
    }

    @Test
    void theEstimateCountsWaitsRestartsAndCommands() {
        assertThat(ScenarioQueue.seconds(List.of("# only a comment"))).isEqualTo(1.0);
        assertThat(ScenarioQueue.seconds(List.of("squeue", "@wait %1 RUNNING", "@sleep 2.5")))
                .isEqualTo(1.0 + 0.3 + 1.0 + 2.5);
        assertThat(ScenarioQueue.seconds(List.of("@slurm.conf", "PreemptType=preempt/qos", "@end")))
                .isEqualTo(1.0 + 4.0);
        assertThat(ScenarioQueue.sequence(List.of("# x", "@sequence  wckeys "))).isEqualTo("wckeys");
        assertThat(ScenarioQueue.sequence(List.of("squeue"))).isNull();
    }
}
