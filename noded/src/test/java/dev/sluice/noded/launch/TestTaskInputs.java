package dev.sluice.noded.launch;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.sluice.noded.job.StepLaunch;
import dev.sluice.noded.job.StepLaunchBuilder;
import dev.sluice.protocol.v1.TaskInput;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** srun's standard input reaching the tasks of a step that read it (compat 280). */
class TestTaskInputs {
    @TempDir
    Path dir;

    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void stop() {
        started.forEach(Process::destroyForcibly);
    }

    private static StepLaunch step(StepLaunch.Stdin.Mode mode, int stdinTask, Integer... taskIds) {
        return StepLaunchBuilder.step(9, 0)
                .stdin(new StepLaunch.Stdin(mode, stdinTask))
                .taskIds(taskIds)
                .build();
    }

    /** A task as StepLauncher starts it: a pipe for input when it reads srun's, its output to a file. */
    private Process task(StepLaunch r, int local, String command) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", command)
                .redirectOutput(dir.resolve("out" + local).toFile())
                .redirectInput(
                        TaskInputs.reads(r, local)
                                ? ProcessBuilder.Redirect.PIPE
                                : ProcessBuilder.Redirect.from(new File("/dev/null")));
        Process p = pb.start();
        started.add(p);
        return p;
    }

    private static TaskInput data(String text) {
        return TaskInput.newBuilder()
                .setData(ByteString.copyFrom(text, StandardCharsets.UTF_8))
                .build();
    }

    private String output(Process p, int local) throws Exception {
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("task %d ended", local).isTrue();
        return Files.readString(dir.resolve("out" + local));
    }

    @Test
    void everyTaskReadsTheInputUntilItsEnd() throws Exception {
        StepLaunch r = step(StepLaunch.Stdin.Mode.ALL, 0, 0, 1);
        List<Process> tasks = List.of(task(r, 0, "cat"), task(r, 1, "wc -l"));
        try (TaskInputs inputs = TaskInputs.of(r, tasks)) {
            inputs.accept(data("one\n"));
            inputs.accept(data("two\n").toBuilder().setEof(true).build());
        }
        assertThat(output(tasks.get(0), 0)).isEqualTo("one\ntwo\n");
        assertThat(output(tasks.get(1), 1).strip()).isEqualTo("2");
    }

    @Test
    void withOneTaskNamedOnlyThatTaskReadsIt() throws Exception {
        StepLaunch r = step(StepLaunch.Stdin.Mode.TASK, 2, 1, 2);
        List<Process> tasks = List.of(task(r, 0, "cat"), task(r, 1, "cat"));
        try (TaskInputs inputs = TaskInputs.of(r, tasks)) {
            inputs.accept(data("x\n").toBuilder().setEof(true).build());
        }
        assertThat(output(tasks.get(0), 0)).isEmpty();
        assertThat(output(tasks.get(1), 1)).isEqualTo("x\n");
    }

    @Test
    void aTaskThatStopsReadingLeavesTheOthersTheirInput() throws Exception {
        StepLaunch r = step(StepLaunch.Stdin.Mode.ALL, 0, 0, 1);
        List<Process> tasks = List.of(task(r, 0, "head -c 1 > /dev/null; echo done"), task(r, 1, "wc -c"));
        byte[] chunk = new byte[64 * 1024];
        try (TaskInputs inputs = TaskInputs.of(r, tasks)) {
            // Far more than a pipe holds, or the first task's queue.
            for (int i = 0; i < TaskInputs.QUEUED_CHUNKS + 64; i++) {
                inputs.accept(TaskInput.newBuilder()
                        .setData(ByteString.copyFrom(chunk))
                        .build());
            }
            inputs.accept(TaskInput.newBuilder().setEof(true).build());
        }
        assertThat(output(tasks.get(0), 0)).isEqualTo("done\n");
        assertThat(output(tasks.get(1), 1).strip())
                .isEqualTo(Long.toString((TaskInputs.QUEUED_CHUNKS + 64L) * chunk.length));
    }

    /**
     * srun's input ends while a task that reads, only later, still has a full queue: it gets every
     * byte, then the end. The task sleeps while the frames come: one chunk fills the pipe, one waits
     * in its writer, the queue holds the rest, so the end finds the queue full.
     */
    @Test
    void aTaskThatReadsLateGetsEveryByteAfterTheEndCame() throws Exception {
        StepLaunch r = step(StepLaunch.Stdin.Mode.ALL, 0, 0);
        List<Process> tasks = List.of(task(r, 0, "sleep 1; wc -c"));
        byte[] chunk = new byte[64 * 1024];
        int chunks = TaskInputs.QUEUED_CHUNKS + 2;
        try (TaskInputs inputs = TaskInputs.of(r, tasks)) {
            for (int i = 0; i < chunks; i++) {
                inputs.accept(TaskInput.newBuilder()
                        .setData(ByteString.copyFrom(chunk))
                        .build());
            }
            inputs.accept(TaskInput.newBuilder().setEof(true).build());
        }
        assertThat(output(tasks.get(0), 0).strip()).isEqualTo(Long.toString((long) chunks * chunk.length));
    }

    @Test
    void withoutForwardingNoTaskReadsIt() {
        StepLaunch r = step(StepLaunch.Stdin.Mode.NONE, 0, 0, 1);
        assertThat(TaskInputs.reads(r, 0)).isFalse();
        assertThat(TaskInputs.reads(r, 1)).isFalse();
    }
}
