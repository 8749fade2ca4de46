package dev.sluice.cli.command.scontrol;

import java.util.List;

/**
 * scontrol's record layout: the first line flush left, the others indented by three spaces, a
 * blank line after each record; in one-line mode ({@code -o}) the lines joined by single spaces
 * on one line.
 */
final class Layout {
    private Layout() {}

    static String render(List<String> lines, boolean oneLiner) {
        if (oneLiner) {
            return String.join(" ", lines) + "\n";
        }
        StringBuilder s = new StringBuilder(lines.get(0)).append('\n');
        for (String line : lines.subList(1, lines.size())) {
            s.append("   ").append(line).append('\n');
        }
        return s.append('\n').toString();
    }

    /** Slurm's secs2time_str: {@code 00:00:18}, {@code 1-02:04:00}. */
    static String duration(long seconds) {
        if (seconds < 0) {
            return "INVALID";
        }
        long d = seconds / 86400;
        String hms = String.format("%02d:%02d:%02d", (seconds / 3600) % 24, (seconds / 60) % 60, seconds % 60);
        return d > 0 ? d + "-" + hms : hms;
    }

    static String yesNo(boolean b) {
        return b ? "YES" : "NO";
    }
}
