package dev.sluice.cli;

import dev.sluice.common.text.RawText;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The process's arguments and environment with every byte, as {@link RawText}. The JVM decodes
 * both in the locale's charset before {@code main} sees them: under {@code LANG=C.UTF-8} a byte
 * that is not UTF-8 becomes U+FFFD, under {@code LANG=C} every non-ASCII byte does, and no
 * command-line setting changes that ({@code sun.jnu.encoding} is fixed by the locale). Slurm's
 * commands pass bytes, so a {@code --wrap} or an environment value in Latin-1 must reach the job
 * as typed; Linux keeps the originals in {@code /proc/self/cmdline} and {@code /proc/self/environ}.
 * Where those are missing or disagree with what the JVM decoded, the JVM's values are used.
 */
final class RawProcess {
    private RawProcess() {}

    static List<String> arguments(String[] jvmArgs) {
        try {
            return arguments(Files.readAllBytes(Path.of("/proc/self/cmdline")), jvmArgs);
        } catch (IOException | UnsupportedOperationException e) {
            return List.of(jvmArgs);
        }
    }

    static Map<String, String> environment(Map<String, String> jvmEnv) {
        try {
            return environment(Files.readAllBytes(Path.of("/proc/self/environ")), jvmEnv);
        } catch (IOException | UnsupportedOperationException e) {
            return jvmEnv;
        }
    }

    /**
     * The last {@code jvmArgs.length} entries of a NUL-separated command line (the JVM's own
     * options and main class come first), if they are those arguments.
     */
    static List<String> arguments(byte[] cmdline, String[] jvmArgs) {
        List<String> all = entries(cmdline);
        if (all.size() < jvmArgs.length) {
            return List.of(jvmArgs);
        }
        List<String> mine = all.subList(all.size() - jvmArgs.length, all.size());
        for (int i = 0; i < jvmArgs.length; i++) {
            if (!agrees(mine.get(i), jvmArgs[i])) {
                return List.of(jvmArgs);
            }
        }
        return List.copyOf(mine);
    }

    /** {@code NAME=value} entries, NUL-separated; the first of a repeated name counts, as getenv(3). */
    static Map<String, String> environment(byte[] environ, Map<String, String> jvmEnv) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String entry : entries(environ)) {
            int eq = entry.indexOf('=');
            if (eq > 0) {
                out.putIfAbsent(entry.substring(0, eq), entry.substring(eq + 1));
            }
        }
        for (Map.Entry<String, String> e : jvmEnv.entrySet()) {
            String raw = out.get(e.getKey());
            if (raw == null || !agrees(raw, e.getValue())) {
                return jvmEnv;
            }
        }
        return out;
    }

    private static List<String> entries(byte[] block) {
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < block.length; i++) {
            if (block[i] == 0) {
                out.add(RawText.decode(Arrays.copyOfRange(block, start, i)));
                start = i + 1;
            }
        }
        if (start < block.length) {
            out.add(RawText.decode(Arrays.copyOfRange(block, start, block.length)));
        }
        return out;
    }

    /**
     * Whether the JVM's decoding could have come from these bytes: equal where both are ASCII,
     * where the JVM's text is the UTF-8 of the bytes, or where the JVM replaced what it could not
     * decode. Only a different process image (a changed argv, another environment) disagrees.
     */
    private static boolean agrees(String raw, String jvm) {
        // Non-ASCII text decoded under another charset: compare the ASCII skeletons.
        return raw.equals(jvm) || skeleton(raw).equals(skeleton(jvm));
    }

    private static String skeleton(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80 && c != '?') {
                b.append(c);
            }
        }
        return b.toString();
    }
}
