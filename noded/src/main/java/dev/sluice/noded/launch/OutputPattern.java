package dev.sluice.noded.launch;

import dev.sluice.common.slurm.SlurmLimits;

/**
 * Slurm's filename patterns for {@code -o/-e/-i}: {@code %j} job id, {@code %J} job.step,
 * {@code %x} job name, {@code %u} user, {@code %N} short node name, {@code %n} node id,
 * {@code %A}/{@code %a} array master and task id, {@code %s} step, {@code %t} task id,
 * {@code %%} a percent sign; a digit after {@code %} zero-pads the number (as {@code %4j}).
 */
public final class OutputPattern {
    private OutputPattern() {}

    /** What the pattern may refer to. Array fields are 0 / NO_VAL when not an array job. */
    public record Context(
            int jobId,
            String jobName,
            String user,
            String hostName,
            int nodeId,
            int arrayJobId,
            int arrayTaskId,
            String step) {}

    public static String expand(String pattern, Context c) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char ch = pattern.charAt(i);
            if (ch != '%' || i + 1 >= pattern.length()) {
                out.append(ch);
                continue;
            }
            int j = i + 1;
            int width = 0;
            while (j < pattern.length() && Character.isDigit(pattern.charAt(j))) {
                width = width * 10 + (pattern.charAt(j) - '0');
                j++;
            }
            if (j >= pattern.length()) {
                out.append(pattern, i, j);
                break;
            }
            char spec = pattern.charAt(j);
            String value = switch (spec) {
                case 'j' -> pad(c.jobId(), width);
                case 'J' -> pad(c.jobId(), width) + (c.step().isEmpty() ? "" : "." + c.step());
                case 'x' -> c.jobName();
                case 'u' -> c.user();
                case 'N' -> c.hostName();
                case 'n' -> pad(c.nodeId(), width);
                case 'A' -> pad(c.arrayJobId() > 0 ? c.arrayJobId() : c.jobId(), width);
                case 'a' -> c.arrayJobId() > 0 ? pad(c.arrayTaskId(), width) : String.valueOf(SlurmLimits.NO_VAL);
                case 's' -> c.step().isEmpty() ? "batch" : c.step();
                case 't' -> pad(0, width);
                case '%' -> "%";
                default -> null;
            };
            if (value == null) {
                // Unknown specifiers are kept verbatim, as Slurm does.
                out.append(pattern, i, j + 1);
            } else {
                out.append(value);
            }
            i = j;
        }
        return out.toString();
    }

    private static String pad(long value, int width) {
        String s = Long.toString(value);
        return s.length() >= width ? s : "0".repeat(width - s.length()) + s;
    }
}
