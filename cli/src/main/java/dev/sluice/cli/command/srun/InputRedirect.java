package dev.sluice.cli.command.srun;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code -i/--input=FILE}: each task reads the file, opened on its node as Slurm's node daemon
 * opens it (relative to the step's working directory, the same file wherever the nodes share
 * the file system): the task's command runs under {@code /bin/sh}, which opens the file and
 * {@code exec}s it. The name pattern's per-task
 * letters ({@code %t %n %N %j %s}) are the task's own variables there; {@code none} is
 * {@code /dev/null}. Pure.
 */
final class InputRedirect {
    private InputRedirect() {}

    /**
     * The argv that runs {@code argv} with its standard input from the file, or {@code argv}
     * itself for {@code all} or a task number (srun's own standard input, {@link StepInput}).
     */
    static List<String> wrap(String pattern, List<String> argv, String user, String jobName) {
        if (pattern.equalsIgnoreCase("all")
                || (!pattern.isEmpty() && pattern.chars().allMatch(Character::isDigit))) {
            return argv;
        }
        String file = pattern.equalsIgnoreCase("none") ? "/dev/null" : shellWord(pattern, user, jobName);
        List<String> out = new ArrayList<>(List.of("/bin/sh", "-c", "exec \"$@\" < " + file, "srun"));
        out.addAll(argv);
        return out;
    }

    /** The pattern as one shell word: literal text quoted, the letters as the task's variables. */
    static String shellWord(String pattern, String user, String jobName) {
        StringBuilder b = new StringBuilder();
        StringBuilder literal = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            String var = null;
            if (c == '%' && i + 1 < pattern.length()) {
                var = switch (pattern.charAt(i + 1)) {
                    case 't' -> "${SLURM_PROCID}";
                    case 'n' -> "${SLURM_NODEID}";
                    case 'N' -> "${SLURMD_NODENAME}";
                    case 'j', 'A' -> "${SLURM_JOB_ID}";
                    case 's' -> "${SLURM_STEP_ID}";
                    default -> null;
                };
                String text = switch (pattern.charAt(i + 1)) {
                    case '%' -> "%";
                    case 'u' -> user;
                    case 'x' -> jobName;
                    default -> null;
                };
                if (text != null) {
                    literal.append(text);
                    i++;
                    continue;
                }
            }
            if (var == null) {
                literal.append(c);
                continue;
            }
            flush(b, literal);
            b.append('"').append(var).append('"');
            i++;
        }
        flush(b, literal);
        return b.toString();
    }

    private static void flush(StringBuilder b, StringBuilder literal) {
        if (!literal.isEmpty()) {
            b.append('\'').append(literal.toString().replace("'", "'\\''")).append('\'');
            literal.setLength(0);
        }
    }
}
