package dev.sluice.cli.command.sstat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.protocol.v1.StepUsage;
import dev.sluice.protocol.v1.TaskUsage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** sstat's figures of a step from its tasks' usage, and its step selection and job/step parsing. */
class TestSstatFields {
    private static TaskUsage task(int id, String node, double cpu, long rss, long read) {
        return TaskUsage.newBuilder()
                .setTaskId(id)
                .setNode(node)
                .setCpuSeconds(cpu)
                .setRssKb(rss)
                .setVmsizeKb(5512)
                .setReadBytes(read)
                .setWriteBytes(read / 2)
                .addPids(100 + id)
                .setCpuFreqKhz(2_600_000)
                .build();
    }

    private static final List<TaskUsage> TASKS =
            List.of(task(0, "n1", 3725.4, 3204, 100), task(1, "n2", 61, 3236, 300), task(2, "n2", 61, 3236, 200));

    @Test
    void maximaNameTheirNodeAndTaskMeansAndTotalsCoverAllTasks() {
        StepStats s = StepStats.of(TASKS);
        assertThat(SstatField.MAXRSS.value("7.0", false, "n[1-2]", s)).isEqualTo("3236K");
        assertThat(SstatField.MAXRSSNODE.value("7.0", false, "n[1-2]", s)).isEqualTo("n2");
        assertThat(SstatField.MAXRSSTASK.value("7.0", false, "n[1-2]", s)).isEqualTo("1");
        assertThat(SstatField.AVERSS.value("7.0", false, "n[1-2]", s)).isEqualTo("3225K");
        assertThat(SstatField.MINCPU.value("7.0", false, "n[1-2]", s)).isEqualTo("00:01:01");
        assertThat(SstatField.MINCPUTASK.value("7.0", false, "n[1-2]", s)).isEqualTo("1");
        assertThat(SstatField.AVECPU.value("7.0", false, "n[1-2]", s)).isEqualTo("00:21:22");
        assertThat(SstatField.MAXDISKREAD.value("7.0", false, "n[1-2]", s)).isEqualTo("300");
        assertThat(SstatField.AVEDISKWRITE.value("7.0", false, "n[1-2]", s)).isEqualTo("100");
        assertThat(SstatField.NTASKS.value("7.0", false, "n[1-2]", s)).isEqualTo("3");
        assertThat(SstatField.PIDS.value("7.0", false, "n[1-2]", s)).isEqualTo("100,101,102");
        assertThat(SstatField.AVECPUFREQ.value("7.0", false, "n[1-2]", s)).isEqualTo("2.60M");
        assertThat(SstatField.REQCPUFREQGOV.value("7.0", false, "n[1-2]", s)).isEqualTo("Unknown");
        assertThat(SstatField.REQCPUFREQ.value("7.batch", true, "n1", s)).isEqualTo("0");
        assertThat(SstatField.TRESUSAGEINTOT.value("7.0", false, "n[1-2]", s))
                .isEqualTo("cpu=01:04:07,energy=0,fs/disk=600,mem=9676K,pages=0,vmem=16536K");
        assertThat(SstatField.TRESUSAGEOUTMAXNODE.value("7.0", false, "n[1-2]", s))
                .isEqualTo("energy=n2,fs/disk=n2");
    }

    @Test
    void cpuTimeTakesDaysAndFrequenciesTheirUnit() {
        assertThat(SstatField.time(0)).isEqualTo("00:00:00");
        assertThat(SstatField.time(90061.9)).isEqualTo("1-01:01:01");
        assertThat(SstatField.frequency(0)).isEqualTo("0");
        assertThat(SstatField.frequency(999)).isEqualTo("999");
        assertThat(SstatField.frequency(1_500)).isEqualTo("1.50K");
    }

    @Test
    void withoutAStepTheLowestOrdinaryOneAndWithAllStepsTheBatchStepFirst() {
        StepUsage batch = StepUsage.newBuilder()
                .setJobId(7)
                .setStepId(SstatCommand.BATCH_STEP)
                .build();
        StepUsage one = StepUsage.newBuilder().setJobId(7).setStepId(1).build();
        StepUsage zero = StepUsage.newBuilder().setJobId(7).setStepId(0).build();
        List<StepUsage> steps = List.of(one, batch, zero);
        assertThat(SstatCommand.choose(steps, new SstatCommand.Target(7, null), false))
                .containsExactly(zero);
        assertThat(SstatCommand.choose(steps, new SstatCommand.Target(7, null), true))
                .containsExactly(batch, zero, one);
        assertThat(SstatCommand.choose(List.of(batch), new SstatCommand.Target(7, null), false))
                .isEmpty();
        assertThat(SstatCommand.choose(steps, new SstatCommand.Target(7, SstatCommand.BATCH_STEP), false))
                .containsExactly(batch);
        assertThat(SstatCommand.choose(steps, new SstatCommand.Target(7, 4), false))
                .isEmpty();
    }

    @Test
    void jobsAndStepsParseAsSlurmsAndBadOnesAreFatal() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        assertThat(SstatCommand.target("12", err)).contains(new SstatCommand.Target(12, null));
        assertThat(SstatCommand.target("12.3", err)).contains(new SstatCommand.Target(12, 3));
        assertThat(SstatCommand.target("12.batch", err)).contains(new SstatCommand.Target(12, SstatCommand.BATCH_STEP));
        assertThat(SstatCommand.target("12.extern", err))
                .contains(new SstatCommand.Target(12, SstatCommand.EXTERN_STEP));
        assertThat(bytes.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(SstatCommand.target("abc", err)).isEmpty();
        assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo("sstat: fatal: Bad job/step specified: abc\n");
    }

    @Test
    void aWidthGivenToAFieldHoldsForEachOfItsColumns() {
        // Observed: -o jobid,jobid%20,ntasks%-3 prints both JobID columns 20 wide.
        List<SstatField> fields = List.of(SstatField.JOBID, SstatField.JOBID, SstatField.NTASKS);
        java.util.List<Integer> widths = java.util.Arrays.asList(null, 20, -3);
        assertThat(SstatCommand.width(fields, widths, 0)).isEqualTo(20);
        assertThat(SstatCommand.width(fields, widths, 1)).isEqualTo(20);
        assertThat(SstatCommand.width(fields, widths, 2)).isEqualTo(-3);
        assertThat(SstatCommand.width(fields, null, 0)).isEqualTo(-12);
    }
}
