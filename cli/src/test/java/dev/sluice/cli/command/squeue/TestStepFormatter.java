package dev.sluice.cli.command.squeue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.protocol.v1.StepInfo;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Expected lines are Slurm 22.05's (/work/shared/tools/real-slurm, `sbatch -n2` whose script
 * runs `srun -n1 sleep 30`, then `squeue -s`).
 */
class TestStepFormatter {
    private static final Instant NOW = Instant.parse("2026-11-29T14:15:22Z");
    private static final StepInfo STEP = StepInfo.newBuilder()
            .setJobId(35)
            .setStepId(0)
            .setName("sleep")
            .setPartition("gpu")
            .setUserName("root")
            .setStartTime(NOW.getEpochSecond() - 4)
            .setNodeList("n1")
            .setNumTasks(1)
            .build();
    private static final StepInfo BATCH = STEP.toBuilder()
            .setStepId(StepFormatter.BATCH_STEP)
            .setName("batch")
            .build();

    @Test
    void theDefaultFormatIsSlurms() {
        List<Character> invalid = new ArrayList<>();
        StepFormatter f = StepFormatter.of(StepFormatter.DEFAULT_FORMAT, invalid::add);
        assertThat(f.header()).isEqualTo("         STEPID     NAME PARTITION     USER      TIME NODELIST");
        assertThat(f.row(STEP, NOW, ZoneOffset.UTC))
                .isEqualTo("           35.0    sleep       gpu     root      0:04 n1");
        assertThat(f.row(BATCH, NOW, ZoneOffset.UTC))
                .isEqualTo("       35.batch    batch       gpu     root      0:04 n1");
        assertThat(invalid).isEmpty();
    }

    @Test
    void stepLettersAndRefusedJobLetters() {
        // squeue -s -o '%i %l|%S|%U|%A|%C': "37.batch UNLIMITED|2026-11-29T14:18:32|0|1|%C" and
        // "squeue: error: Invalid job step format specification: C".
        List<Character> invalid = new ArrayList<>();
        StepFormatter f = StepFormatter.of("%i %l|%S|%U|%A|%C", invalid::add);
        assertThat(f.header()).isEqualTo("STEPID TIME_LIMIT|START_TIME|UID|TASKS|%C");
        assertThat(f.row(BATCH, NOW, ZoneOffset.UTC)).isEqualTo("35.batch UNLIMITED|2026-11-29T14:15:18|0|1|%C");
        assertThat(invalid).containsExactly('C');
    }

    @Test
    void stepListEntriesNameJobsOrSteps() {
        var job = StepReport.StepSelector.parse("35").orElseThrow();
        assertThat(job.matches(STEP)).isTrue();
        assertThat(job.matches(BATCH)).isTrue();
        var batch = StepReport.StepSelector.parse("35.batch").orElseThrow();
        assertThat(batch.matches(BATCH)).isTrue();
        assertThat(batch.matches(STEP)).isFalse();
        assertThat(StepReport.StepSelector.parse("35.0").orElseThrow().matches(STEP))
                .isTrue();
        assertThat(StepReport.StepSelector.parse("abc")).isEmpty();
        assertThat(StepReport.StepSelector.parse("35.x")).isEmpty();
    }
}
