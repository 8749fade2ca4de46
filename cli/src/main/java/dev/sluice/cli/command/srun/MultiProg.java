package dev.sluice.cli.command.srun;

import dev.sluice.cli.command.submit.SubmitException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code --multi-prog}: the configuration file's lines ({@code TASKS PROGRAM ARGS...}, tasks as
 * {@code 0,2-3} or {@code *}, {@code %t} the task id and {@code %o} its offset in the line's
 * range, {@code #} comments) become one POSIX shell program that every task runs and that
 * {@code exec}s the task's own line by {@code SLURM_PROCID}. Sluice's steps start one command
 * line on every task; the shell picks the line, which is what Slurm's node daemon does. Pure.
 */
final class MultiProg {
    private MultiProg() {}

    /** The step's argv: {@code /bin/sh -c PROGRAM}. */
    static List<String> argv(String config, String fileName, int numTasks) throws SubmitException {
        Map<Integer, List<String>> byTask = new TreeMap<>();
        int lineNo = 0;
        for (String raw : config.split("\n", -1)) {
            lineNo++;
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            List<String> words = words(line);
            if (words.size() < 2) {
                throw new SubmitException(
                        1, "error: Line " + lineNo + " of configuration file " + fileName + " invalid");
            }
            List<Integer> tasks = tasks(words.get(0), numTasks, byTask, lineNo, fileName);
            for (int offset = 0; offset < tasks.size(); offset++) {
                int task = tasks.get(offset);
                List<String> argv = new ArrayList<>();
                for (String w : words.subList(1, words.size())) {
                    argv.add(w.replace("%t", Integer.toString(task)).replace("%o", Integer.toString(offset)));
                }
                byTask.putIfAbsent(task, argv);
            }
        }
        StringBuilder sh = new StringBuilder("case \"$SLURM_PROCID\" in\n");
        for (int task = 0; task < numTasks; task++) {
            List<String> argv = byTask.get(task);
            if (argv == null) {
                throw new SubmitException(
                        1, "error: Configuration file " + fileName + " invalid, no record for task id " + task);
            }
            sh.append(task).append(") exec");
            argv.forEach(w -> sh.append(' ').append(quote(w)));
            sh.append(" ;;\n");
        }
        sh.append("esac\nexit 1\n");
        return List.of("/bin/sh", "-c", sh.toString(), fileName);
    }

    private static List<Integer> tasks(
            String spec, int numTasks, Map<Integer, List<String>> taken, int lineNo, String fileName)
            throws SubmitException {
        List<Integer> out = new ArrayList<>();
        if (spec.equals("*")) {
            for (int t = 0; t < numTasks; t++) {
                if (!taken.containsKey(t)) {
                    out.add(t);
                }
            }
            return out;
        }
        for (String part : spec.split(",")) {
            String[] range = part.split("-", 2);
            int lo;
            int hi;
            try {
                lo = Integer.parseInt(range[0]);
                hi = range.length == 2 ? Integer.parseInt(range[1]) : lo;
            } catch (NumberFormatException e) {
                // Real srun 22.05 names the task field it could not read before the line.
                throw new SubmitException(
                        1,
                        "error: Invalid task range specification (" + spec + ")",
                        "error: Line " + lineNo + " of configuration file " + fileName + " invalid");
            }
            for (int t = lo; t <= hi; t++) {
                if (t >= numTasks) {
                    throw new SubmitException(
                            1,
                            "error: Invalid task id, " + t + " >= ntasks",
                            "error: Line " + lineNo + " of configuration file " + fileName + " invalid");
                }
                out.add(t);
            }
        }
        return out;
    }

    /** Blank-separated words; single or double quotes group a word, as Slurm reads the lines. */
    static List<String> words(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        for (char c : line.toCharArray()) {
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    w.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    out.add(w.toString());
                    w.setLength(0);
                    inWord = false;
                }
            } else {
                w.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            out.add(w.toString());
        }
        return out;
    }

    private static String quote(String w) {
        return "'" + w.replace("'", "'\\''") + "'";
    }
}
