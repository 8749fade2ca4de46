package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code srun --pty} as a user at a terminal meets it: srun runs inside util-linux's
 * {@code script}, which gives it a terminal of a known size, and the test types into that
 * terminal. Task 0 gets a terminal of srun's size on its node; keystrokes reach it raw, so
 * Ctrl-C is a byte its own terminal turns into SIGINT; srun's terminal is as it was afterwards.
 */
class TestPtyEndToEnd {
    @TempDir
    static Path stateDir;

    private static ClusterProcesses cluster;

    @BeforeAll
    static void up() throws Exception {
        cluster = new ClusterProcesses(stateDir, 2, 2, 1);
        // salloc without a command then runs Slurm's interactive step: a shell on the first node.
        cluster.editSlurmConf(conf -> conf + "\nLaunchParameters=use_interactive_step\n");
        cluster.start();
    }

    @AfterAll
    static void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** A shell command line run on a terminal of its own (the user's), its output as it comes. */
    private static final class OnTerminal implements AutoCloseable {
        final Process process;
        final ByteArrayOutputStream seen = new ByteArrayOutputStream();

        OnTerminal(String commandLine) throws IOException {
            ProcessBuilder pb = new ProcessBuilder("script", "-q", "-e", "-c", commandLine, "/dev/null")
                    .directory(cluster.workDir().toFile())
                    .redirectErrorStream(true);
            pb.environment().putAll(cluster.clientEnv());
            pb.environment().put("TERM", "xterm");
            pb.environment().put("SHELL", "/bin/sh");
            process = pb.start();
            InputStream in = process.getInputStream();
            Thread.ofVirtual().start(() -> {
                byte[] buf = new byte[4096];
                try {
                    for (int n; (n = in.read(buf)) > 0; ) {
                        synchronized (seen) {
                            seen.write(buf, 0, n);
                        }
                    }
                } catch (IOException e) {
                    // the terminal closed
                }
            });
        }

        String text() {
            synchronized (seen) {
                return seen.toString(StandardCharsets.UTF_8);
            }
        }

        void awaitText(String expected) {
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .untilAsserted(() -> assertThat(text()).contains(expected));
        }

        void type(String keys) throws IOException {
            OutputStream keyboard = process.getOutputStream();
            keyboard.write(keys.getBytes(StandardCharsets.UTF_8));
            keyboard.flush();
        }

        int awaitExit() throws InterruptedException {
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).as(text()).isTrue();
            return process.exitValue();
        }

        @Override
        public void close() {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }

    @Test
    void taskZeroRunsOnATerminalOfSrunsSizeAndSrunsTerminalIsPutBack() throws Exception {
        try (OnTerminal t = new OnTerminal("stty rows 33 cols 101; srun --pty -N2 -n2 sh -c '"
                + "tty; stty size; echo rows=$SLURM_PTY_WIN_ROW cols=$SLURM_PTY_WIN_COL; "
                + "test -t 0 && echo input-is-a-terminal; echo task-$SLURM_PROCID'; "
                + "echo srun-exit=$?; stty -a")) {
            assertThat(t.awaitExit()).isZero();
            String out = t.text();
            assertThat(out)
                    .containsPattern("/dev/pts/\\d+\r\n")
                    .contains("33 101\r\n", "rows=33 cols=101\r\n", "input-is-a-terminal\r\n", "task-0\r\n")
                    .contains("srun-exit=0");
            // --pty sends the other tasks' output to /dev/null, as Slurm's does.
            assertThat(out).doesNotContain("task-1");
            // Raw mode and no echo while the step ran; back to the user's settings after it.
            String settings = out.substring(out.indexOf("srun-exit=0"));
            assertThat(List.of(settings.split("[\\s;]+"))).contains("icanon", "echo", "isig");
        }
    }

    @Test
    void whatIsTypedReachesTheTaskAndCtrlCInterruptsItThroughItsOwnTerminal() throws Exception {
        try (OnTerminal t = new OnTerminal("srun --pty sh -c '"
                + "trap \"echo got-interrupt; exit 7\" INT; echo ready; read line; echo \"line:$line\"; "
                + "while :; do sleep 0.1; done'; echo srun-exit=$?")) {
            t.awaitText("ready");
            // Enter sends a carriage return; the task's terminal makes it a new line.
            t.type("hello\r");
            t.awaitText("line:hello");
            t.type("\u0003");
            t.awaitText("srun-exit=7");
            assertThat(t.text()).contains("got-interrupt").contains("hello\r\n");
            assertThat(t.awaitExit()).isZero();
        }
    }

    @Test
    void sallocWithTheInteractiveStepOpensAShellOnTheFirstNodesTerminal() throws Exception {
        try (OnTerminal t = new OnTerminal("salloc -N1 -n1; echo salloc-exit=$?")) {
            t.awaitText("Granted job allocation");
            t.type("echo node=$SLURMD_NODENAME step=$SLURM_STEP_ID; tty\r");
            t.awaitText("node=node1 step=0");
            t.awaitText("/dev/pts/");
            t.type("exit 3\r");
            t.awaitText("salloc-exit=3");
            assertThat(t.text()).contains("Relinquishing job allocation");
            assertThat(t.awaitExit()).isZero();
        }
    }

    @Test
    void resizingSrunsTerminalResizesTheTasks() throws Exception {
        try (OnTerminal t = new OnTerminal("stty rows 30 cols 90; echo outer=$(tty); srun --pty sh -c '"
                + "trap \"echo winch; stty size\" WINCH; echo ready; stty size; "
                + "until [ \"$line\" = done ]; do read line; done'")) {
            t.awaitText("ready");
            t.awaitText("30 90");
            java.util.regex.Matcher outer =
                    java.util.regex.Pattern.compile("outer=(/dev/pts/\\d+)").matcher(t.text());
            assertThat(outer.find()).as(t.text()).isTrue();
            // As a terminal window resized by its user: the kernel signals srun (SIGWINCH).
            Process stty = new ProcessBuilder("stty", "-F", outer.group(1), "rows", "50", "cols", "120")
                    .inheritIO()
                    .start();
            assertThat(stty.waitFor()).isZero();
            // The task's terminal takes the size, and the kernel tells the task so.
            t.awaitText("winch");
            t.awaitText("50 120");
            t.type("done\r");
            assertThat(t.awaitExit()).isZero();
        }
    }
}
