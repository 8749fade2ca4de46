package dev.sluice.common.text;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import java.util.Locale;
import java.util.Optional;

/**
 * The rule for text one user stores and other users' commands print (a job's name, comment,
 * paths, account, ...): no control characters. Slurm 22.05 stores them and prints them raw, so
 * {@code sbatch -J $'x\n  42  ...'} puts a line of the attacker's choosing into everyone's
 * {@code squeue}, {@code scontrol show job} and {@code sacct} (and an escape sequence can move the
 * cursor over lines already printed). Sluice refuses them where the text enters: C0 controls
 * (newline, carriage return, tab, NUL, ESC, ...), DEL, and the C1 controls U+0080 to U+009F, which
 * some terminals obey too. See docs/security.md, "Hardened inputs".
 */
public final class ControlCharacters {
    private ControlCharacters() {}

    /** The index of the first control character in {@code text}, or -1. */
    public static int find(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (isControl(text.charAt(i))) {
                return i;
            }
        }
        return -1;
    }

    public static boolean isControl(char c) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f);
    }

    /**
     * Why {@code value} may not be stored as {@code field} (the name {@code scontrol show job}
     * gives it), or empty when it may: {@code Invalid JobName: control character \n is not allowed}.
     */
    public static Optional<String> refusal(String field, String value) {
        int at = find(value);
        if (at < 0) {
            return Optional.empty();
        }
        return Optional.of("Invalid " + field + ": control character " + shown(value.charAt(at)) + " is not allowed");
    }

    /**
     * {@code value}, checked: refused with {@link #refusal}'s reason (Slurm's invalid-argument
     * error) when it holds a control character. The check every edge that takes such text makes
     * (the controller's request mapping, its handlers, its step service), from this one place.
     *
     * @param field the name {@code scontrol show job} gives it
     */
    public static String checked(String field, String value) {
        Optional<String> why = refusal(field, value);
        if (why.isPresent()) {
            throw new SlurmException(ErrorCode.INVALID_ARGUMENT, why.get());
        }
        return value;
    }

    /**
     * {@code text} with each control character shown as {@code ?}, as {@code ls} shows them: for
     * output of text stored before it was checked (accounting keeps years of it).
     */
    public static String printable(String text) {
        if (find(text) < 0) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            out.append(isControl(c) ? '?' : c);
        }
        return out.toString();
    }

    /** A control character as C writes it in a string literal. */
    static String shown(char c) {
        return switch (c) {
            case '\n' -> "\\n";
            case '\r' -> "\\r";
            case '\t' -> "\\t";
            case '\0' -> "\\0";
            default -> String.format(Locale.ROOT, c < 0x100 ? "\\x%02x" : "\\u%04x", (int) c);
        };
    }
}
