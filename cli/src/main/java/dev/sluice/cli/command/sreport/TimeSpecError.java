package dev.sluice.cli.command.sreport;

/**
 * The message sreport prints for a {@code Start=}/{@code End=} it cannot read, with the position
 * Slurm's parse_time reports: where a {@code YYYY-MM-DD} date's month or day out of range begins,
 * where a year's first non-digit is, else 0 (a word it does not know). Pure.
 */
final class TimeSpecError {
    private TimeSpecError() {}

    static String message(String value) {
        return "Invalid time specification (pos=" + position(value) + "): " + value;
    }

    static int position(String s) {
        if (s.length() < 8 || s.charAt(4) != '-' || s.charAt(7) != '-') {
            return 0;
        }
        for (int i = 0; i < 4; i++) {
            if (!Character.isDigit(s.charAt(i))) {
                return i;
            }
        }
        int month = Character.isDigit(s.charAt(5)) ? (s.charAt(5) - '0') * 10 + (s.charAt(6) - '0') : -1;
        if (!Character.isDigit(s.charAt(6)) || month < 1 || month > 12) {
            return 5;
        }
        if (s.length() < 9 || !Character.isDigit(s.charAt(8))) {
            return 8;
        }
        int day = s.charAt(8) - '0';
        if (s.length() > 9 && Character.isDigit(s.charAt(9))) {
            day = day * 10 + s.charAt(9) - '0';
        }
        return day < 1 || day > 31 ? 8 : 0;
    }
}
