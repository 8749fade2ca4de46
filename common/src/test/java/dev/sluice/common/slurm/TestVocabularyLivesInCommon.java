package dev.sluice.common.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Slurm's vocabulary is defined once, in {@code common}: no other module's main code spells a
 * TRES list by hand ({@code "cpu=" + ...}: build a {@code common.tres.Tres}) or writes Slurm's
 * NO_VAL/INFINITE sentinels as raw numbers (use {@link SlurmLimits}). Reads the other modules'
 * sources next to this one.
 */
class TestVocabularyLivesInCommon {
    private static final Path ROOT = Path.of("..");
    private static final Pattern BLOCK_COMMENT = Pattern.compile("/\\*.*?\\*/", Pattern.DOTALL);
    private static final Pattern LINE_COMMENT = Pattern.compile("//[^\n]*");
    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\\n]|\\\\.)*\"");
    /**
     * A TRES list's item at the start of a string or after {@code =} or {@code ,}: {@code
     * "cpu="}, {@code "TRES=cpu="}, {@code ",mem="}. Key=value listings of other formats, with
     * their items after a space (select-query's {@code " cpu="}), are not TRES.
     */
    private static final Pattern TRES_TEXT = Pattern.compile("(?:\"|[=,])(?:cpu|mem|node|billing)=");

    private static final Pattern SENTINEL = Pattern.compile("(?i)\\b(0x0*fffffff[ef]L?|429496729[45]L?)\\b");

    private static List<Path> mainSources() throws IOException {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> modules = Files.list(ROOT)) {
            for (Path module : modules.sorted().toList()) {
                Path main = module.resolve("src/main/java");
                if (module.getFileName().toString().equals("common") || !Files.isDirectory(main)) {
                    continue;
                }
                try (Stream<Path> files = Files.walk(main)) {
                    files.filter(f -> f.toString().endsWith(".java")).forEach(out::add);
                }
            }
        }
        return out;
    }

    private static String code(Path file) {
        try {
            String text = Files.readString(file);
            text = BLOCK_COMMENT.matcher(text).replaceAll(" ");
            return LINE_COMMENT.matcher(text).replaceAll(" ");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void theOtherModulesAreThere() throws IOException {
        // Guards the guard: run from the common module inside the reactor.
        assertThat(mainSources()).anyMatch(f -> f.toString().contains("ctld"));
    }

    @Test
    void noTresStringIsBuiltByHand() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path file : mainSources()) {
            Matcher strings = STRING.matcher(code(file));
            while (strings.find()) {
                if (TRES_TEXT.matcher(strings.group()).find()) {
                    found.add(ROOT.relativize(file) + ": " + strings.group());
                }
            }
        }
        assertThat(found).as("TRES text built outside common.tres.Tres").isEmpty();
    }

    @Test
    void noSentinelIsARawNumber() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path file : mainSources()) {
            Matcher m = SENTINEL.matcher(code(file));
            while (m.find()) {
                found.add(ROOT.relativize(file) + ": " + m.group());
            }
        }
        assertThat(found)
                .as("NO_VAL/INFINITE written as numbers outside common.slurm.SlurmLimits")
                .isEmpty();
    }
}
