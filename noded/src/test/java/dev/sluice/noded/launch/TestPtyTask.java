package dev.sluice.noded.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.noded.job.StepLaunch;
import dev.sluice.noded.job.StepLaunchBuilder;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@code srun --pty}'s task on the node: a real pseudo-terminal of srun's size, task 0 only. */
class TestPtyTask {
    private static StepLaunch step(boolean pty, Integer... taskIds) {
        StepLaunchBuilder b = StepLaunchBuilder.step(1, 0).taskIds(taskIds);
        if (pty) {
            b.pty(20, 70);
        }
        return b.build();
    }

    @Test
    void onlyTaskZeroOfAPtyStepRunsOnTheTerminalAndTheOthersAreSilenced() {
        StepLaunch r = step(true, 0, 1);
        assertThat(PtyTask.runs(r, 0)).isTrue();
        assertThat(PtyTask.silenced(r, 0)).isFalse();
        assertThat(PtyTask.runs(r, 1)).isFalse();
        assertThat(PtyTask.silenced(r, 1)).isTrue();
        StepLaunch plain = step(false, 0, 1);
        assertThat(PtyTask.runs(plain, 0)).isFalse();
        assertThat(PtyTask.silenced(plain, 1)).isFalse();
        // Task 0 on another node: this node's first task is task 2.
        assertThat(PtyTask.runs(step(true, 2, 3), 0)).isFalse();
    }

    @Test
    void theStepCarriesSlurmsTerminalSizeVariables() {
        Map<String, String> env = new HashMap<>();
        PtyTask.environment(step(true, 0), env);
        assertThat(env).containsEntry("SLURM_PTY_WIN_ROW", "20").containsEntry("SLURM_PTY_WIN_COL", "70");
        Map<String, String> none = new HashMap<>();
        PtyTask.environment(step(false, 0), none);
        assertThat(none).isEmpty();
    }

    @Test
    void theWrappedTaskHasATerminalOfSrunsSizeReadsItsInputAndEndsWithItsStatus() throws Exception {
        List<String> command = PtyTask.wrap(
                step(true, 0),
                List.of(
                        "sh",
                        "-c",
                        "tty; stty size; test -t 0 && echo stdin-is-a-terminal; read x; echo \"got:$x\"; exit 4"));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try (OutputStream in = p.getOutputStream()) {
            in.write("hello\n".getBytes(StandardCharsets.UTF_8));
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(out)
                .containsPattern("/dev/pts/\\d+\r\n")
                .contains("20 70\r\n", "stdin-is-a-terminal\r\n", "got:hello\r\n");
        assertThat(p.exitValue()).isEqualTo(4);
    }

    @Test
    void anArgumentWithQuotesReachesTheTaskAsTyped() throws Exception {
        List<String> command = PtyTask.wrap(step(true, 0), List.of("printf", "%s|", "it's", "a \"b\" $HOME"));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(out).isEqualTo("it's|a \"b\" $HOME|");
        assertThat(p.exitValue()).isZero();
    }
}
