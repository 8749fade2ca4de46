package dev.sluice.cli.command.submit;

import dev.sluice.common.units.MemorySize;

/**
 * The numbers of the submit options ({@code -N}, counts, memory sizes, {@code --nice}) read as
 * Slurm 22.05 reads them, with its messages and exit statuses for text it refuses. What the
 * numbers then mean for the job is {@link JobSpecBuilder}'s.
 */
public final class OptionNumbers {
    private OptionNumbers() {}

    /** {@code -N min[-max]}; Slurm's messages for a bad count and a reversed range. */
    public static int[] nodeRange(String text) throws SubmitException {
        String[] parts = text.split("-", 2);
        int min = nodeCount(parts[0]);
        // A single count is both bounds, as Slurm records it (scontrol shows NumNodes=2-2).
        int max = parts.length == 2 ? nodeCount(parts[1]) : min;
        if (parts.length == 2 && max < min) {
            throw new SubmitException(
                    255, "error: Maximum node count " + max + " is less than minimum node count " + min);
        }
        return new int[] {min, max};
    }

    private static int nodeCount(String s) throws SubmitException {
        // Slurm accepts k/m multipliers on counts ("1k" is 1024).
        String t = s.strip();
        int mult = 1;
        if (t.endsWith("k") || t.endsWith("K")) {
            mult = 1024;
            t = t.substring(0, t.length() - 1);
        } else if (t.endsWith("m") || t.endsWith("M")) {
            mult = 1024 * 1024;
            t = t.substring(0, t.length() - 1);
        }
        if (t.isEmpty() || t.length() > 9 || !t.chars().allMatch(Character::isDigit)) {
            throw new SubmitException(255, "error: \"" + s + "\" is not a valid node count");
        }
        return Math.multiplyExact(Integer.parseInt(t), mult);
    }

    static int positive(String s, String option) throws SubmitException {
        String t = s.strip();
        if (t.isEmpty() || t.length() > 9 || !t.chars().allMatch(Character::isDigit) || Integer.parseInt(t) == 0) {
            throw new SubmitException(1, "error: Invalid numeric value \"" + s + "\" for " + option + ".");
        }
        return Integer.parseInt(t);
    }

    static long memory(String s, String option) throws SubmitException {
        try {
            return MemorySize.parseMegabytes(s);
        } catch (IllegalArgumentException e) {
            throw new SubmitException(255, "error: Invalid " + option + " specification");
        }
    }

    /** {@code --nice} without a value is 100; like Slurm's strtol, text that is no number is 0. */
    static int nice(String s) throws SubmitException {
        if (s.isEmpty()) {
            return 100;
        }
        int end = 0;
        String t = s.strip();
        if (end < t.length() && (t.charAt(end) == '-' || t.charAt(end) == '+')) {
            end++;
        }
        while (end < t.length() && Character.isDigit(t.charAt(end))) {
            end++;
        }
        String num = t.substring(0, end);
        if (num.isEmpty() || num.equals("-") || num.equals("+")) {
            return 0;
        }
        long v;
        try {
            v = Long.parseLong(num);
        } catch (NumberFormatException e) {
            v = Long.MAX_VALUE;
        }
        if (Math.abs(v) > 2147483645L) {
            throw new SubmitException(255, "error: Invalid --nice value, out of range (+/- 2147483645)");
        }
        return (int) v;
    }
}
