package dev.sluice.noded.launch;

import dev.sluice.noded.job.StepLaunch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * {@code srun --pty}: task 0 runs on a pseudo-terminal, as slurmstepd gives it one. The terminal
 * is made by util-linux's {@code script} (in every Debian-like system's essential set), started
 * as the task's user: it opens the pair, makes the terminal the task's controlling terminal in a
 * session of its own, copies its standard input (srun's keystrokes, sent raw) to the terminal and
 * the terminal's output to its standard output (the task's output stream to srun), and exits with
 * the task's status. So the line discipline runs on the node, where Slurm's runs: a Ctrl-C typed
 * at srun is a byte that the terminal turns into SIGINT for the task's foreground process group,
 * and the terminal echoes what is typed (srun's own terminal is put in raw mode without echo).
 * The other tasks' output goes to /dev/null, as {@code --pty} implies in Slurm.
 */
final class PtyTask {
    private PtyTask() {}

    /** Whether the task at {@code local} runs on the step's pseudo-terminal. */
    static boolean runs(StepLaunch r, int local) {
        return r.srun().pty().isPresent() && r.tasks().taskIds().get(local) == 0;
    }

    /** Whether the task at {@code local} writes to /dev/null: a {@code --pty} step's other tasks. */
    static boolean silenced(StepLaunch r, int local) {
        return r.srun().pty().isPresent() && r.tasks().taskIds().get(local) != 0;
    }

    /**
     * {@code command} (run as the task's user already) run on a pseudo-terminal of srun's size.
     * {@code -q}: no start and end banners; {@code -e}: the task's exit status; {@code /dev/null}:
     * no typescript file.
     */
    static List<String> wrap(StepLaunch r, List<String> command) {
        StringBuilder inner = new StringBuilder();
        StepLaunch.Pty pty = r.srun().pty().orElse(new StepLaunch.Pty(0, 0));
        if (pty.rows() > 0 && pty.cols() > 0) {
            inner.append("stty rows ")
                    .append(pty.rows())
                    .append(" cols ")
                    .append(pty.cols())
                    .append(" 2>/dev/null; ");
        }
        inner.append("exec ").append(command.stream().map(PrologEpilog::quote).collect(Collectors.joining(" ")));
        return List.of("script", "-q", "-e", "-c", inner.toString(), "/dev/null");
    }

    /**
     * srun's terminal changed size: task 0's terminal takes the new one, and the kernel tells the
     * task's foreground job (SIGWINCH), as when a local terminal is resized. The terminal is the
     * one {@code script} gave its child (that child's standard input); it is set with
     * {@code stty -F} run through {@code asUser}, so with the task's user's rights, as the
     * terminal is theirs.
     */
    static void resize(StepLaunch r, List<Process> tasks, StepLaunch.Pty size, List<String> asUser) {
        for (int local = 0; local < tasks.size(); local++) {
            if (runs(r, local)) {
                terminalOf(tasks.get(local).toHandle()).ifPresent(tty -> setSize(asUser, tty, size));
            }
        }
    }

    /** The terminal {@code script} made: its child's standard input, a {@code /dev/pts/N}. */
    static Optional<String> terminalOf(ProcessHandle script) {
        return script.children().findFirst().flatMap(child -> {
            try {
                Path fd0 = Files.readSymbolicLink(Path.of("/proc", Long.toString(child.pid()), "fd", "0"));
                return fd0.startsWith("/dev/pts/") ? Optional.of(fd0.toString()) : Optional.empty();
            } catch (IOException e) {
                return Optional.empty();
            }
        });
    }

    private static void setSize(List<String> asUser, String tty, StepLaunch.Pty size) {
        List<String> command = new ArrayList<>(asUser);
        command.addAll(List.of(
                "stty", "-F", tty, "rows", Integer.toString(size.rows()), "cols", Integer.toString(size.cols())));
        ProcessSignals.run(command.toArray(String[]::new));
    }

    /** Slurm's variables of a {@code --pty} step: the terminal's size. */
    static void environment(StepLaunch r, Map<String, String> env) {
        r.srun().pty().ifPresent(pty -> {
            env.put("SLURM_PTY_WIN_ROW", Integer.toString(pty.rows()));
            env.put("SLURM_PTY_WIN_COL", Integer.toString(pty.cols()));
        });
    }
}
