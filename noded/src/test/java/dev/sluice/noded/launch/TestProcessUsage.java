package dev.sluice.noded.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.noded.job.TaskUsage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A task's usage read from a /proc of the test's own: its process and the ones it started. */
class TestProcessUsage {
    @TempDir
    Path proc;

    /** A /proc/PID/stat line with the fields sstat reads (Linux proc(5) order). */
    private void process(
            long pid,
            long ppid,
            String comm,
            long utime,
            long stime,
            long cutime,
            long majflt,
            long vsize,
            long rssPages,
            long rchar,
            long wchar)
            throws IOException {
        Path dir = Files.createDirectories(proc.resolve(Long.toString(pid)));
        String stat = pid + " (" + comm + ") S " + ppid + " " + pid + " " + pid + " 0 -1 4194304 100 0 " + majflt
                + " 0 " + utime + " " + stime + " " + cutime + " 0 20 0 1 0 12345 " + vsize + " " + rssPages
                + " 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 3 0 0 0 0 0\n";
        Files.writeString(dir.resolve("stat"), stat);
        Files.writeString(
                dir.resolve("io"),
                "rchar: " + rchar + "\nwchar: " + wchar + "\nsyscr: 1\nsyscw: 1\nread_bytes: 0\nwrite_bytes: 0\n");
    }

    @Test
    void aTaskCountsItselfAndEveryProcessBelowIt() throws IOException {
        process(100, 1, "sh", 150, 50, 30, 2, 4096 * 1024, 100, 1000, 10);
        // A command name with spaces and parentheses does not shift the fields.
        process(101, 100, "dd (copy) x", 300, 100, 0, 1, 8192 * 1024, 200, 3_000_000, 20);
        process(102, 101, "sleep", 0, 0, 0, 0, 1024 * 1024, 10, 5, 0);
        process(200, 1, "other", 999, 999, 0, 9, 1, 1, 1, 1);
        Files.writeString(proc.resolve("cpuinfo"), "processor\t: 0\ncpu MHz\t\t: 2600.000\n");
        ProcessUsage usage = new ProcessUsage(proc, 4096);
        TaskUsage t = usage.task(3, "n1", 100, usage.cpuFreqKhz());
        assertThat(t.taskId()).isEqualTo(3);
        assertThat(t.node()).isEqualTo("n1");
        assertThat(t.pids()).containsExactly(100, 101, 102);
        // (150 + 50 + 30 + 300 + 100) ticks of 1/100 s.
        assertThat(t.cpuSeconds()).isEqualTo(6.3);
        assertThat(t.rssKb()).isEqualTo((100 + 200 + 10) * 4);
        assertThat(t.vmsizeKb()).isEqualTo(4096 + 8192 + 1024);
        assertThat(t.pages()).isEqualTo(3);
        assertThat(t.readBytes()).isEqualTo(3_001_005);
        assertThat(t.writeBytes()).isEqualTo(30);
        assertThat(t.cpuFreqKhz()).isEqualTo(2_600_000);
    }

    @Test
    void aProcessThatIsGoneCountsNothing() {
        ProcessUsage usage = new ProcessUsage(proc, 4096);
        TaskUsage t = usage.task(0, "n1", 4242, 0);
        assertThat(t.pids()).isEmpty();
        assertThat(t.cpuSeconds()).isZero();
        assertThat(usage.cpuFreqKhz()).isZero();
    }

    @Test
    void theRealProcOfThisTestsJvm() {
        ProcessUsage usage = ProcessUsage.system();
        TaskUsage t = usage.task(0, "here", ProcessHandle.current().pid(), 0);
        assertThat(t.pids()).contains((int) ProcessHandle.current().pid());
        assertThat(t.rssKb()).isPositive();
        assertThat(t.vmsizeKb()).isGreaterThan(t.rssKb());
    }
}
