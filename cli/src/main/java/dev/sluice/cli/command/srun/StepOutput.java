package dev.sluice.cli.command.srun;

import dev.sluice.cli.caller.CallerFileException;
import dev.sluice.cli.caller.CallerSide;
import dev.sluice.common.slurm.SlurmLimits;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Where the tasks' output goes: srun's own terminal, or per {@code -o/--output} and
 * {@code -e/--error} a file (name pattern with {@code %j %s %t %n %N %u %x %J %A %a %%}),
 * {@code none}, or a task number (only that task's output, on the terminal). Slurm's node
 * daemons write the files; here srun writes them as the caller (through sluice-agent, by the
 * caller's front end), which is the same file wherever the step's nodes share the file system.
 * Files are created, or truncated unless {@code --open-mode=append}, when the task that writes
 * them starts. Without {@code -e}, standard error goes where {@code -o} sends standard output, as
 * in Slurm. {@code -l} prefixes lines in files as on the terminal.
 */
final class StepOutput {
    /** What the file names are made of. */
    record Names(int jobId, String user, String jobName, String workDir) {}

    private final String out;
    private final String err;
    private final boolean append;
    private final boolean label;
    private final Names names;
    private final CallerSide caller;
    private final PrintStream terminalOut;
    private final PrintStream terminalErr;
    private final Set<String> opened = new HashSet<>();
    private final Set<String> failed = new HashSet<>();
    private final Map<Long, StringBuilder> partial = new HashMap<>();
    private int width = 1;
    private int stepId;

    /**
     * @param out {@code -o} as given, or null
     * @param err {@code -e} as given, or null
     */
    StepOutput(
            String out,
            String err,
            boolean append,
            boolean label,
            Names names,
            CallerSide caller,
            PrintStream terminalOut,
            PrintStream terminalErr) {
        this.out = out;
        this.err = err == null ? out : err;
        this.append = append;
        this.label = label;
        this.names = names;
        this.caller = caller;
        this.terminalOut = terminalOut;
        this.terminalErr = terminalErr;
    }

    synchronized void step(int id) {
        stepId = id;
    }

    synchronized void tasks(int numTasks) {
        width = Integer.toString(Math.max(0, numTasks - 1)).length();
    }

    /** A node's tasks start: their files are created (or truncated) now, even if they write nothing. */
    synchronized void started(int task, String node, int nodeId) {
        for (int stream = 1; stream <= 2; stream++) {
            String path = file(stream, task, node, nodeId);
            if (path != null && opened.add(path)) {
                put(path, new byte[0], append, stream);
            }
        }
    }

    /**
     * A file could not be made: Slurm's node daemon then launches no task, so the step's tasks
     * are stopped and srun exits 1.
     */
    synchronized boolean openFailed() {
        return !failed.isEmpty();
    }

    synchronized void write(int task, int stream, byte[] data, String node, int nodeId) {
        String pattern = stream == 2 ? err : out;
        if (pattern != null && pattern.equalsIgnoreCase("none")) {
            return;
        }
        if (pattern != null && isTaskNumber(pattern) && Integer.parseInt(pattern) != task) {
            return;
        }
        String path = file(stream, task, node, nodeId);
        if (!label) {
            emit(path, stream, data);
            return;
        }
        StringBuilder buf = partial.computeIfAbsent(key(task, stream), k -> new StringBuilder());
        buf.append(new String(data, StandardCharsets.UTF_8));
        int nl;
        while ((nl = buf.indexOf("\n")) >= 0) {
            emit(path, stream, (prefix(task) + buf.substring(0, nl + 1)).getBytes(StandardCharsets.UTF_8));
            buf.delete(0, nl + 1);
        }
    }

    /** The task ended: a last line without a newline is printed, with one, as Slurm's -l does. */
    synchronized void ended(int task, String node, int nodeId) {
        for (int stream = 1; stream <= 2; stream++) {
            StringBuilder buf = partial.remove(key(task, stream));
            if (buf != null && !buf.isEmpty()) {
                emit(
                        file(stream, task, node, nodeId),
                        stream,
                        (prefix(task) + buf + "\n").getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    synchronized void flush() {
        terminalOut.flush();
        terminalErr.flush();
    }

    private void emit(String path, int stream, byte[] data) {
        if (path == null) {
            PrintStream target = stream == 2 ? terminalErr : terminalOut;
            target.write(data, 0, data.length);
            target.flush();
        } else if (!failed.contains(path)) {
            put(path, data, true, stream);
        }
    }

    private void put(String path, byte[] data, boolean appendTo, int stream) {
        try {
            caller.write(path, data, appendTo);
        } catch (CallerFileException e) {
            // Once, in real srun 22.05's words (which do not name the file).
            if (failed.isEmpty()) {
                terminalErr.println(
                        "srun: error: Could not open " + (stream == 2 ? "stderr" : "stdout") + " file: " + e.reason());
                terminalErr.flush();
            }
            failed.add(path);
        }
    }

    /** The file for this task's stream, or null for the terminal. */
    private String file(int stream, int task, String node, int nodeId) {
        String pattern = stream == 2 ? err : out;
        if (pattern == null || pattern.equalsIgnoreCase("none") || isTaskNumber(pattern)) {
            return null;
        }
        String name = expand(pattern, task, node, nodeId);
        return name.startsWith("/") ? name : names.workDir() + "/" + name;
    }

    private static boolean isTaskNumber(String s) {
        return !s.isEmpty() && s.length() < 10 && s.chars().allMatch(Character::isDigit);
    }

    /** Slurm's filename pattern: {@code %[width]X}; an unknown letter stays as written. */
    String expand(String pattern, int task, String node, int nodeId) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c != '%' || i + 1 >= pattern.length()) {
                b.append(c);
                continue;
            }
            int j = i + 1;
            while (j < pattern.length() && Character.isDigit(pattern.charAt(j))) {
                j++;
            }
            if (j >= pattern.length()) {
                b.append(pattern, i, j);
                i = j - 1;
                continue;
            }
            int digits = j > i + 1 ? Math.min(10, Integer.parseInt(pattern.substring(i + 1, j))) : 0;
            char letter = pattern.charAt(j);
            String value = switch (letter) {
                case '%' -> "%";
                case 'j', 'A' -> pad(names.jobId(), digits);
                case 's' -> pad(stepId, digits);
                case 'J' -> pad(names.jobId(), digits) + "." + stepId;
                case 't' -> pad(task, digits);
                case 'n' -> pad(nodeId, digits);
                // A job that is no array task: Slurm's NO_VAL for the task id.
                case 'a' -> pad(SlurmLimits.NO_VAL, digits);
                case 'N' -> node;
                case 'u' -> names.user();
                case 'x' -> names.jobName();
                default -> null;
            };
            if (value == null) {
                b.append(pattern, i, j + 1);
            } else {
                b.append(value);
            }
            i = j;
        }
        return b.toString();
    }

    private static String pad(long n, int width) {
        String s = Long.toString(n);
        return s.length() >= width ? s : "0".repeat(width - s.length()) + s;
    }

    private String prefix(int task) {
        return String.format("%" + width + "d: ", task);
    }

    private static long key(int task, int stream) {
        return ((long) task << 2) | stream;
    }
}
