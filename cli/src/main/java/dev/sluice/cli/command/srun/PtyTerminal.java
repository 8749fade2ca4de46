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
        String file = "/tmp/.srun-pty-" + UUID.randomUUID();
        int status = run(
                side,
                env,
                cwd,
                List.of("sh", "-c", "set -C; { stty size && stty -g; } > \"$1\" && stty raw -echo", "srun-pty", file));
        Optional<PtyTerminal> terminal = Optional.empty();
        try {
            if (status == 0) {
                terminal = parse(side, env, cwd, new String(side.read(file, 4096), StandardCharsets.UTF_8));
            }
        } catch (CallerFileException e) {
            // no size: the terminal is put back below
        } finally {
            run(side, env, cwd, List.of("rm", "-f", "--", file));
        }
        if (status == 0 && terminal.isEmpty()) {
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
        String file = "/tmp/.srun-pty-" + UUID.randomUUID();
        int status = run(side, env, cwd, List.of("sh", "-c", "set -C; stty size > \"$1\"", "srun-pty", file));
        try {
            if (status != 0) {
                return Optional.empty();
            }
            String[] size = new String(side.read(file, 4096), StandardCharsets.UTF_8)
                    .strip()
                    .split("\\s+");
            return Optional.of(PtySize.newBuilder()
                    .setRows(Integer.parseInt(size[0]))
                    .setCols(Integer.parseInt(size[1]))
                    .build());
        } catch (CallerFileException | NumberFormatException | ArrayIndexOutOfBoundsException e) {
            return Optional.empty();
        } finally {
            run(side, env, cwd, List.of("rm", "-f", "--", file));
        }
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
        String[] size = lines[0].strip().split("\\s+");
        try {
            return Optional.of(new PtyTerminal(
                    side, env, cwd, Integer.parseInt(size[0]), Integer.parseInt(size[1]), lines[1].strip()));
        } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
            return Optional.empty();
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
