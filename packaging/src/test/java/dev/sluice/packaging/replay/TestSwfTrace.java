package dev.sluice.packaging.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Standard Workload Format as the Parallel Workloads Archive defines it (version 2.2,
 * https://www.cs.huji.ac.il/labs/parallel/workload/swf.html): 18 whitespace-separated fields,
 * -1 for unknown, {@code ;} comments, fractional seconds allowed in time fields.
 */
class TestSwfTrace {
    // A line in the layout of the archive's cleaned logs: right-aligned columns, leading blanks.
    private static final String LINE =
            "    12     3600    120   7200    64  7100.5  2048    64  10800  -1  1  7  2  -1  1  1  -1  -1";

    @Test
    void readsEveryFieldOfAJobLine() throws Exception {
        SwfJob job = SwfTrace.parse(List.of(LINE)).getFirst();

        assertThat(job.jobNumber()).isEqualTo(12);
        assertThat(job.submitTime()).isEqualTo(3600);
        assertThat(job.waitTime()).isEqualTo(120);
        assertThat(job.runTime()).isEqualTo(7200);
        assertThat(job.allocatedProcessors()).isEqualTo(64);
        assertThat(job.averageCpuTime()).isEqualTo(7101); // 7100.5 rounded to the second
        assertThat(job.usedMemoryKb()).isEqualTo(2048);
        assertThat(job.requestedProcessors()).isEqualTo(64);
        assertThat(job.requestedTime()).isEqualTo(10800);
        assertThat(job.requestedMemoryKb()).isEqualTo(-1);
        assertThat(job.status()).isEqualTo(1);
        assertThat(job.userId()).isEqualTo(7);
        assertThat(job.groupId()).isEqualTo(2);
        assertThat(job.executable()).isEqualTo(-1);
        assertThat(job.queue()).isEqualTo(1);
        assertThat(job.partition()).isEqualTo(1);
        assertThat(job.precedingJob()).isEqualTo(-1);
        assertThat(job.thinkTime()).isEqualTo(-1);
    }

    @Test
    void skipsHeaderCommentsAndBlankLinesAndKeepsOrder() throws Exception {
        List<SwfJob> jobs = SwfTrace.parse(List.of(
                "; Version: 2.2",
                "; MaxProcs: 128",
                "",
                "1 0 -1 10 4 -1 -1 4 60 -1 1 1 1 -1 1 1 -1 -1",
                "\t2 5.4 -1 20.6 -1 -1 -1 8 -1 -1 0 2 1 -1 1 1 -1 -1"));

        assertThat(jobs).extracting(SwfJob::jobNumber).containsExactly(1L, 2L);
        assertThat(jobs.get(1).submitTime()).isEqualTo(5);
        assertThat(jobs.get(1).runTime()).isEqualTo(21);
        // Requested processors stand in where the allocated count is unknown, and vice versa.
        assertThat(jobs.get(1).processors()).isEqualTo(8);
        assertThat(jobs.get(0).processors()).isEqualTo(4);
    }

    @Test
    void jobsWithoutRunTimeOrSizeAreReadButNotReplayable() throws Exception {
        List<SwfJob> jobs = SwfTrace.parse(List.of(
                "1 0 -1 -1 4 -1 -1 4 60 -1 5 1 1 -1 1 1 -1 -1", "2 0 -1 30 -1 -1 -1 -1 60 -1 0 1 1 -1 1 1 -1 -1"));

        assertThat(jobs).noneMatch(SwfJob::replayable);
    }

    @Test
    void formatWritesWhatParseReads() throws Exception {
        SwfJob job = SwfTrace.parse(List.of(LINE)).getFirst();

        assertThat(SwfTrace.parse(List.of(SwfTrace.format(job)))).containsExactly(job);
        assertThat(SwfTrace.format(job)).isEqualTo("12 3600 120 7200 64 7101 2048 64 10800 -1 1 7 2 -1 1 1 -1 -1");
    }

    @Test
    void aLineWithTooFewFieldsNamesItsLine() {
        assertThatThrownBy(() -> SwfTrace.parse(List.of("; header", "1 0 -1 10 4 -1 -1 4 60 -1 1 1 1 -1 1 1 -1")))
                .isInstanceOf(SwfTrace.FormatException.class)
                .hasMessage("line 2: 17 fields, but an SWF job line has 18");
    }

    @Test
    void aNonIntegerNamesLineAndField() {
        assertThatThrownBy(() -> SwfTrace.parse(List.of(
                        "1 0 -1 10 4 -1 -1 4 60 -1 1 1 1 -1 1 1 -1 -1",
                        "2 0 -1 10 4.5 -1 -1 4 60 -1 1 1 1 -1 1 1 -1 -1")))
                .hasMessage("line 2: field 5 (Number of Allocated Processors): '4.5' is not an integer");
    }

    @Test
    void aTimeThatIsNoNumberNamesLineAndField() {
        assertThatThrownBy(() -> SwfTrace.parse(List.of("1 0 -1 1h 4 -1 -1 4 60 -1 1 1 1 -1 1 1 -1 -1")))
                .hasMessage("line 1: field 4 (Run Time): '1h' is not a number of seconds");
        assertThatThrownBy(() -> SwfTrace.parse(List.of("1 0 -1 NaN 4 -1 -1 4 60 -1 1 1 1 -1 1 1 -1 -1")))
                .hasMessage("line 1: field 4 (Run Time): 'NaN' is not a number of seconds");
    }

    @Test
    void negativeValuesOtherThanUnknownAreRefused() {
        assertThatThrownBy(() -> SwfTrace.parse(List.of("1 0 -1 10 -4 -1 -1 4 60 -1 1 1 1 -1 1 1 -1 -1")))
                .hasMessage("line 1: field 5 (Number of Allocated Processors): '-4' is negative (only -1, unknown, may"
                        + " be)");
        assertThatThrownBy(() -> SwfTrace.parse(List.of("1 -1 -1 10 4 -1 -1 4 60 -1 1 1 1 -1 1 1 -1 -1")))
                .hasMessage("line 1: field 2 (Submit Time): '-1' is negative: every job needs a submit time");
    }

    @Test
    void aBadTraceSimulatesNothing(@TempDir Path dir) throws Exception {
        Path swf = dir.resolve("bad.swf");
        Files.writeString(
                swf,
                "1 0 -1 10 4 -1 -1 4 60 -1 1 1 1 -1 1 1 -1 -1\n" + "2 5 -1 10 4x -1 -1 4 60 -1 1 1 1 -1 1 1 -1 -1\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int code = Simulate.run(
                new String[] {"--swf", swf.toString(), "--nodes", "2", "--cpus", "4"},
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));

        assertThat(code).isEqualTo(1);
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(err.toString(StandardCharsets.UTF_8))
                .isEqualTo("sluice simulate: error: " + swf
                        + ": line 2: field 5 (Number of Allocated Processors): '4x' is not an integer; nothing"
                        + " simulated\n");
    }
}
