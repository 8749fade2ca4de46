package dev.sluice.cli.command.srun;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.caller.CallerFileException;
import dev.sluice.cli.caller.CallerSide;
import dev.sluice.cli.caller.Errno;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * srun {@code --pty}'s own terminal: what it asks the caller's side to run, and that the
 * terminal's settings are put back however the step went.
 */
class TestPtyTerminal {
    /** The caller's side of a terminal: runs nothing, answers as a shell on a terminal would. */
    private static final class FakeTerminal implements CallerSide {
        final List<List<String>> ran = new ArrayList<>();
        final Map<String, byte[]> files = new HashMap<>();
        final String written;
        final int status;

        FakeTerminal(String written, int status) {
            this.written = written;
            this.status = status;
        }

        @Override
        public byte[] read(String path, int limit) throws CallerFileException {
            byte[] b = files.get(path);
            if (b == null) {
                throw new CallerFileException(path, Errno.ENOENT);
            }
            return b;
        }

        @Override
        public void write(String path, byte[] data, boolean append) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void checkReadable(String path) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int run(List<String> argv, Map<String, String> env, String cwd) {
            ran.add(argv);
            if (argv.get(0).equals("sh") && argv.size() == 5 && written != null) {
                files.put(argv.get(4), written.getBytes(StandardCharsets.UTF_8));
            }
            return argv.get(0).equals("sh") ? status : 0;
        }
    }

    @Test
    void itIsPutInRawModeWithItsSizeAndSettingsReadBackAndRestoredOnClose() {
        FakeTerminal side = new FakeTerminal("48 132\n500:5:bf:8a3b:3:1c:7f:15:4:0:1:0\n", 0);
        Optional<PtyTerminal> t = PtyTerminal.raw(side, Map.of("PATH", "/usr/bin:/bin"), "/tmp");
        assertThat(t).isPresent();
        assertThat(t.get().rows()).isEqualTo(48);
        assertThat(t.get().cols()).isEqualTo(132);
        List<String> first = side.ran.get(0);
        assertThat(first.get(2)).contains("set -C", "stty size", "stty -g", "stty raw -echo");
        String file = first.get(4);
        assertThat(file).startsWith("/tmp/.srun-pty-");
        assertThat(side.ran.get(1)).containsExactly("rm", "-f", "--", file);
        t.get().close();
        assertThat(side.ran.get(2)).containsExactly("stty", "500:5:bf:8a3b:3:1c:7f:15:4:0:1:0");
    }

    @Test
    void settingsThatCannotBeReadBackLeaveTheTerminalSaneNotRaw() {
        FakeTerminal side = new FakeTerminal("garbage", 0);
        assertThat(PtyTerminal.raw(side, Map.of(), "/tmp")).isEmpty();
        assertThat(side.ran.get(side.ran.size() - 1)).containsExactly("stty", "sane");
    }

    @Test
    void aTerminalThatRefusedRawModeIsLeftAlone() {
        FakeTerminal side = new FakeTerminal(null, 1 << 8);
        assertThat(PtyTerminal.raw(side, Map.of(), "/tmp")).isEmpty();
        assertThat(side.ran).noneMatch(argv -> argv.get(0).equals("stty"));
    }

    @Test
    void presenceIsAskedOfTheCallersStandardInput() {
        FakeTerminal yes = new FakeTerminal(null, 0);
        assertThat(PtyTerminal.present(yes, Map.of(), "/")).isTrue();
        assertThat(yes.ran).containsExactly(List.of("sh", "-c", "test -t 0"));
        assertThat(PtyTerminal.present(new FakeTerminal(null, 1 << 8), Map.of(), "/"))
                .isFalse();
    }

    @Test
    void srunsOwnLinesEndWithCarriageReturnsWhileTheTerminalIsRaw() throws Exception {
        java.io.ByteArrayOutputStream sink = new java.io.ByteArrayOutputStream();
        try (java.io.PrintStream err = new java.io.PrintStream(PtyTerminal.crlf(sink), true, StandardCharsets.UTF_8)) {
            err.println("srun: error: node1: task 0: Exited with exit code 5");
            err.print("a\nb");
        }
        assertThat(sink.toString(StandardCharsets.UTF_8))
                .isEqualTo("srun: error: node1: task 0: Exited with exit code 5\r\na\r\nb");
    }
}
