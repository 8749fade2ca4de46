package dev.sluice.common.text;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Byte strings (argv, environment values, batch scripts) held in Java {@link String}s without
 * losing a byte. Slurm moves them as bytes: a Latin-1 {@code é} in a script comment or an
 * environment value that is not UTF-8 reaches the job unchanged. Decoding is UTF-8 where the bytes
 * are UTF-8; every byte of an invalid sequence becomes the lone surrogate {@code U+DC80 + (b -
 * 0x80)} (Python's {@code surrogateescape}), which no valid UTF-8 text can produce, so {@link
 * #encode} gives back exactly the bytes {@link #decode} was given. Text that is valid UTF-8 decodes
 * to the same String as {@code new String(bytes, UTF_8)}, so commands see ordinary text.
 */
public final class RawText {
    private static final char ESCAPE_BASE = 0xDC00;

    private RawText() {}

    /** The bytes as text; bytes that are not UTF-8 become escapes ({@link #encode} restores them). */
    public static String decode(byte[] bytes) {
        return decode(bytes, 0, bytes.length);
    }

    public static String decode(byte[] bytes, int offset, int length) {
        try {
            // The usual case, valid UTF-8 throughout, in one pass of the JDK's decoder.
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, offset, length))
                    .toString();
        } catch (CharacterCodingException e) {
            return decodeEscaping(bytes, offset, length);
        }
    }

    private static String decodeEscaping(byte[] bytes, int offset, int length) {
        StringBuilder out = new StringBuilder(length);
        int i = offset;
        int end = offset + length;
        while (i < end) {
            int b = bytes[i] & 0xff;
            if (b < 0x80) {
                out.append((char) b);
                i++;
                continue;
            }
            int n = sequenceLength(bytes, i, end);
            if (n == 0) {
                out.append((char) (ESCAPE_BASE + b));
                i++;
            } else {
                out.append(new String(bytes, i, n, StandardCharsets.UTF_8));
                i += n;
            }
        }
        return out.toString();
    }

    /** The bytes {@code text} stands for: UTF-8, escapes back to their byte. */
    public static byte[] encode(String text) {
        if (!hasEscapes(text)) {
            return text.getBytes(StandardCharsets.UTF_8);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(text.length() + 16);
        int i = 0;
        while (i < text.length()) {
            int cp = text.codePointAt(i);
            int width = Character.charCount(cp);
            if (isEscape(cp)) {
                out.write(cp - ESCAPE_BASE);
            } else {
                byte[] b = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
                out.write(b, 0, b.length);
            }
            i += width;
        }
        return out.toByteArray();
    }

    /** Whether {@code text} holds a byte that was not UTF-8. */
    public static boolean hasEscapes(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isSurrogate(c)) {
                int cp = text.codePointAt(i);
                if (isEscape(cp)) {
                    return true;
                }
                i += Character.charCount(cp) - 1;
            }
        }
        return false;
    }

    /**
     * {@code text} for a place that holds only text (a job name, a path shown by squeue): each
     * escaped byte becomes U+FFFD, as a UTF-8 decoder would have made it.
     */
    public static String toText(String text) {
        if (!hasEscapes(text)) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        int i = 0;
        while (i < text.length()) {
            int cp = text.codePointAt(i);
            out.appendCodePoint(isEscape(cp) ? 0xFFFD : cp);
            i += Character.charCount(cp);
        }
        return out.toString();
    }

    private static boolean isEscape(int cp) {
        return cp >= ESCAPE_BASE + 0x80 && cp <= ESCAPE_BASE + 0xff;
    }

    /**
     * The length of the well-formed UTF-8 sequence starting at {@code i} (RFC 3629: no overlong
     * forms, no surrogates, nothing above U+10FFFF), or 0 when there is none.
     */
    private static int sequenceLength(byte[] b, int i, int end) {
        int b0 = b[i] & 0xff;
        int n;
        int lo = 0x80;
        int hi = 0xbf;
        if (b0 >= 0xc2 && b0 <= 0xdf) {
            n = 2;
        } else if (b0 >= 0xe0 && b0 <= 0xef) {
            n = 3;
            if (b0 == 0xe0) {
                lo = 0xa0;
            } else if (b0 == 0xed) {
                hi = 0x9f;
            }
        } else if (b0 >= 0xf0 && b0 <= 0xf4) {
            n = 4;
            if (b0 == 0xf0) {
                lo = 0x90;
            } else if (b0 == 0xf4) {
                hi = 0x8f;
            }
        } else {
            return 0;
        }
        if (i + n > end) {
            return 0;
        }
        int b1 = b[i + 1] & 0xff;
        if (b1 < lo || b1 > hi) {
            return 0;
        }
        for (int k = 2; k < n; k++) {
            int c = b[i + k] & 0xff;
            if (c < 0x80 || c > 0xbf) {
                return 0;
            }
        }
        return n;
    }
}
