package dev.sluice.cli.command.srun;

import dev.sluice.cli.caller.CallerFileException;
import dev.sluice.cli.caller.CallerSide;
import dev.sluice.protocol.v1.PtySize;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * srun's own terminal under {@code --pty}, as Slurm's srun handles it: in raw mode without echo
 * while the step runs (each keystroke, Ctrl-C included, goes to the task's pseudo-terminal,
 * whose line discipline on the node echoes and signals), its size sent with the step, and its
 * settings put back when the step ends.
 *
 * <p>The terminal is the caller's, so everything here runs as the caller, on the caller's
 * standard input ({@link CallerSide#run}): {@code stty} itself, as a user would type it.
 */
record PtyTerminal(CallerSide side, Map<String, String> env, String cwd, int rows, int cols, String saved)
        implements AutoCloseable {

    /** Whether srun's standard input is a terminal: without one Slurm disregards {@code --pty}. */
    static boolean present(CallerSide side, Map<String, String> env, String cwd) {
        return run(side, env, cwd, List.of("sh", "-c", "test -t 0")) == 0;
    }

    /**
     * Reads the terminal's size and settings and puts it in raw mode; empty when that failed (the
     * terminal is then left as it was). The size and settings come back through a file the caller
     * creates ({@code set -C}: never one that exists) and removes.
     */
    static Optional<PtyTerminal> raw(CallerSide side, Map<String, String> env, String cwd) {
        Answer answer = ask(side, env, cwd, "{ stty size && stty -g; } > \"$1\" && stty raw -echo");
        Optional<PtyTerminal> terminal = answer.text().flatMap(t -> parse(side, env, cwd, t));
        if (answer.ran() && terminal.isEmpty()) {
            // Raw, but its settings could not be read back: the usual ones, rather than raw.
            run(side, env, cwd, List.of("stty", "sane"));
        }
        return terminal;
    }

    /**
     * The terminal's size now (after SIGWINCH), read as {@link #raw} reads it; empty when it
     * could not be read.
     */
    Optional<PtySize> currentSize() {
        return ask(side, env, cwd, "stty size > \"$1\"").text().flatMap(t -> sizeOf(t.strip()));
    }

    /** The size srun's step starts with. */
    PtySize size() {
        return PtySize.newBuilder().setRows(rows).setCols(cols).build();
    }

    static Optional<PtyTerminal> parse(CallerSide side, Map<String, String> env, String cwd, String text) {
        String[] lines = text.strip().split("\n");
        if (lines.length != 2) {
            return Optional.empty();
        }
        return sizeOf(lines[0].strip())
                .map(size -> new PtyTerminal(side, env, cwd, size.getRows(), size.getCols(), lines[1].strip()));
    }

    /** {@code stty size}'s line, {@code ROWS COLS}. */
    private static Optional<PtySize> sizeOf(String line) {
        String[] size = line.split("\\s+");
        try {
            return Optional.of(PtySize.newBuilder()
                    .setRows(Integer.parseInt(size[0]))
                    .setCols(Integer.parseInt(size[1]))
                    .build());
        } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
            return Optional.empty();
        }
    }

    /** What {@link #ask} got: whether the script succeeded, and the file it wrote when readable. */
    private record Answer(boolean ran, Optional<String> text) {}

    /**
     * Runs {@code script} as the caller with {@code $1} a new file ({@code set -C}: never one that
     * exists), reads that file back and removes it.
     */
    private static Answer ask(CallerSide side, Map<String, String> env, String cwd, String script) {
        String file = "/tmp/.srun-pty-" + UUID.randomUUID();
        int status = run(side, env, cwd, List.of("sh", "-c", "set -C; " + script, "srun-pty", file));
        try {
            if (status != 0) {
                return new Answer(false, Optional.empty());
            }
            return new Answer(true, Optional.of(new String(side.read(file, 4096), StandardCharsets.UTF_8)));
        } catch (CallerFileException e) {
            return new Answer(true, Optional.empty());
        } finally {
            run(side, env, cwd, List.of("rm", "-f", "--", file));
        }
    }

    /** Puts the terminal's settings back as they were before {@link #raw}. */
    @Override
    public void close() {
        run(side, env, cwd, List.of("stty", saved));
    }

    /** {@code out} with each {@code \n} written as {@code \r\n}, as a raw terminal needs. */
    static OutputStream crlf(OutputStream out) {
        return new FilterOutputStream(out) {
            @Override
            public void write(int b) throws IOException {
                if (b == '\n') {
                    out.write('\r');
                }
                out.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                for (int i = off; i < off + len; i++) {
                    write(b[i]);
                }
            }
        };
    }

    private static int run(CallerSide side, Map<String, String> env, String cwd, List<String> argv) {
        try {
            return side.run(argv, env, cwd);
        } catch (IOException e) {
            return 127 << 8;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1 << 8;
        }
    }
}
