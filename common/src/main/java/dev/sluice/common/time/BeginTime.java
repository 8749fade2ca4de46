package dev.sluice.common.time;

import static java.util.Objects.requireNonNull;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZonedDateTime;
import java.util.Locale;

/**
 * Absolute times as users write them for {@code sbatch --begin}, {@code scontrol update
 * StartTime=} and {@code sacct -S}: the grammar of sbatch(1) {@code --begin}.
 *
 * <ul>
 *   <li>{@code HH:MM[:SS] [AM|PM]} — a time of day; today if still ahead (to the minute), else
 *       tomorrow;
 *   <li>{@code midnight}, {@code noon}, {@code elevenses} (11:00), {@code fika} (15:00), {@code
 *       teatime} (16:00);
 *   <li>{@code today}, {@code tomorrow}; {@code YYYY-MM-DD}, {@code MMDD[YY]}, {@code MM/DD[/YY]},
 *       {@code MM.DD[.YY]} — a date alone means 00:00; without a year, this year if the date and
 *       time are still ahead, else next year;
 *   <li>{@code YYYY-MM-DD[THH:MM[:SS]]}, and date and time in either order separated by blanks;
 *   <li>{@code now[{+|-}count[seconds|minutes|hours|days|weeks]]}, seconds by default ({@code
 *       now+1hour}, {@code now+60}).
 * </ul>
 *
 * <p>"Now" and the time zone are inputs: {@code now} is the caller's clock reading. Impossible
 * dates ({@code 2026-02-30}) are rejected where Slurm's {@code mktime} would roll them over.
 */
public final class BeginTime {

    private static final String[] UNITS = {
        "seconds", "second", "minutes", "minute", "hours", "hour", "days", "day", "weeks", "week"
    };
    private static final long[] UNIT_SECONDS = {1, 1, 60, 60, 3600, 3600, 86400, 86400, 604800, 604800};
    private static final String[] KEYWORDS = {"midnight", "noon", "elevenses", "fika", "teatime"};
    private static final int[] KEYWORD_HOURS = {0, 12, 11, 15, 16};

    private BeginTime() {}

    /**
     * @param now the current time, in the zone the text is meant in
     * @throws IllegalArgumentException "Invalid time specification" for anything else
     */
    public static Instant parse(String text, ZonedDateTime now) {
        requireNonNull(text, "text is null");
        requireNonNull(now, "now is null");
        return new Parser(text, now).parse();
    }

    private static final class Parser {
        private final String s;
        private final String lower;
        private final ZonedDateTime now;
        private int pos;
        private int hour = -1;
        private int minute;
        private int second;
        private int month = -1;
        private int day;
        private int year = -1;

        Parser(String text, ZonedDateTime now) {
            this.s = text.strip();
            this.lower = s.toLowerCase(Locale.ROOT);
            this.now = now;
        }

        Instant parse() {
            if (s.isEmpty()) {
                throw invalid();
            }
            while (pos < s.length()) {
                char c = s.charAt(pos);
                if (c == ' ' || c == '\t' || c == '-' || c == 'T') {
                    pos++;
                } else if (lower.startsWith("today", pos)) {
                    setDate(now.toLocalDate());
                    pos += 5;
                } else if (lower.startsWith("tomorrow", pos)) {
                    setDate(now.toLocalDate().plusDays(1));
                    pos += 8;
                } else if (lower.startsWith("now", pos)) {
                    pos += 3;
                    long delta = delta();
                    try {
                        setDateTime(now.plusSeconds(delta).toLocalDateTime());
                    } catch (DateTimeException | ArithmeticException e) {
                        throw invalid();
                    }
                } else if (keyword()) {
                    continue;
                } else if (isDigit(c)) {
                    if (at(pos + 1) == ':' || at(pos + 2) == ':') {
                        time();
                    } else {
                        date();
                    }
                } else {
                    throw invalid();
                }
            }
            return resolve();
        }

        private boolean keyword() {
            for (int i = 0; i < KEYWORDS.length; i++) {
                if (lower.startsWith(KEYWORDS[i], pos)) {
                    hour = KEYWORD_HOURS[i];
                    minute = 0;
                    second = 0;
                    pos += KEYWORDS[i].length();
                    return true;
                }
            }
            return false;
        }

        private long delta() {
            skipBlanks();
            if (pos >= s.length()) {
                return 0;
            }
            char sign = s.charAt(pos);
            if (sign != '+' && sign != '-') {
                throw invalid();
            }
            pos++;
            skipBlanks();
            int start = pos;
            while (pos < s.length() && isDigit(s.charAt(pos)) && pos - start < 12) {
                pos++;
            }
            if (pos == start) {
                throw invalid();
            }
            long count = Long.parseLong(s.substring(start, pos));
            skipBlanks();
            long unit = 1;
            for (int i = 0; i < UNITS.length; i++) {
                if (lower.startsWith(UNITS[i], pos)) {
                    unit = UNIT_SECONDS[i];
                    pos += UNITS[i].length();
                    break;
                }
            }
            return (sign == '-' ? -1 : 1) * count * unit;
        }

        private void time() {
            hour = twoDigits(23, true);
            expect(':');
            minute = twoDigits(59, false);
            second = 0;
            if (at(pos) == ':') {
                pos++;
                second = twoDigits(59, false);
            }
            skipBlanks();
            if (lower.startsWith("pm", pos)) {
                if (hour > 12) {
                    throw invalid();
                }
                hour = hour == 12 ? 12 : hour + 12;
                pos += 2;
            } else if (lower.startsWith("am", pos)) {
                if (hour > 12) {
                    throw invalid();
                }
                hour = hour == 12 ? 0 : hour;
                pos += 2;
            }
        }

        private void date() {
            if (at(pos + 4) == '-' && at(pos + 7) == '-') {
                year = number(4);
                pos++;
                month = upTo2(12);
                expect('-');
                day = upTo2(31);
                return;
            }
            month = upTo2(12);
            if (at(pos) == '.' || at(pos) == '/') {
                pos++;
            }
            day = upTo2(31);
            if (at(pos) == '.' || at(pos) == '/') {
                pos++;
            }
            if (isDigit(at(pos))) {
                year = 2000 + number(2);
            }
        }

        private ZonedDateTime zoned(LocalDateTime t) {
            return ZonedDateTime.of(t, now.getZone());
        }

        private Instant resolve() {
            if (hour == -1 && month == -1) {
                throw invalid();
            }
            if (hour == -1) {
                hour = 0;
                minute = 0;
                second = 0;
            } else if (month == -1) {
                boolean ahead = hour > now.getHour() || (hour == now.getHour() && minute > now.getMinute());
                setDate(ahead ? now.toLocalDate() : now.toLocalDate().plusDays(1));
            }
            try {
                if (year == -1) {
                    LocalDateTime thisYear = LocalDateTime.of(now.getYear(), month, day, hour, minute, 0);
                    boolean ahead =
                            thisYear.isAfter(now.toLocalDateTime().withSecond(0).withNano(0));
                    year = ahead ? now.getYear() : now.getYear() + 1;
                }
                return zoned(LocalDateTime.of(year, month, day, hour, minute, second))
                        .toInstant();
            } catch (DateTimeException e) {
                throw invalid();
            }
        }

        private void setDate(LocalDate d) {
            year = d.getYear();
            month = d.getMonthValue();
            day = d.getDayOfMonth();
        }

        private void setDateTime(LocalDateTime t) {
            setDate(t.toLocalDate());
            hour = t.getHour();
            minute = t.getMinute();
            second = t.getSecond();
        }

        private int twoDigits(int max, boolean oneAllowed) {
            int n = digit();
            if (isDigit(at(pos))) {
                n = n * 10 + digit();
            } else if (!oneAllowed) {
                throw invalid();
            }
            if (n > max) {
                throw invalid();
            }
            return n;
        }

        private int upTo2(int max) {
            int n = digit();
            if (isDigit(at(pos))) {
                n = n * 10 + digit();
            }
            if (n < 1 || n > max) {
                throw invalid();
            }
            return n;
        }

        private int number(int digits) {
            int n = 0;
            for (int i = 0; i < digits; i++) {
                n = n * 10 + digit();
            }
            return n;
        }

        private int digit() {
            char c = at(pos);
            if (!isDigit(c)) {
                throw invalid();
            }
            pos++;
            return c - '0';
        }

        private void expect(char c) {
            if (at(pos) != c) {
                throw invalid();
            }
            pos++;
        }

        private void skipBlanks() {
            while (at(pos) == ' ' || at(pos) == '\t') {
                pos++;
            }
        }

        private char at(int i) {
            return i < s.length() ? s.charAt(i) : '\0';
        }

        private static boolean isDigit(char c) {
            return c >= '0' && c <= '9';
        }

        private IllegalArgumentException invalid() {
            return new IllegalArgumentException("Invalid time specification (pos=" + pos + "): " + s);
        }
    }
}
