package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.text.RawText;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The command line and environment as Linux keeps them, against what the JVM decoded from the
 * same bytes: under C.UTF-8 a byte that is not UTF-8 became U+FFFD, under C any non-ASCII byte
 * did.
 */
class TestRawProcess {
    private static byte[] block(Object... entries) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object e : entries) {
            out.writeBytes(e instanceof byte[] b ? b : ((String) e).getBytes(StandardCharsets.UTF_8));
            out.write(0);
        }
        return out.toByteArray();
    }

    private static final byte[] LATIN1_WRAP = {'e', 'c', 'h', 'o', ' ', (byte) 0xe9};

    @Test
    void theArgumentsAreTheLastEntriesOfTheCommandLineWithEveryByte() {
        byte[] cmdline =
                block("/usr/bin/java", "-cp", "x.jar", "dev.sluice.cli.Main", "sbatch", "--wrap", LATIN1_WRAP, "");
        String[] jvm = {"sbatch", "--wrap", "echo \uFFFD", ""};
        assertThat(RawProcess.arguments(cmdline, jvm))
                .containsExactly("sbatch", "--wrap", RawText.decode(LATIN1_WRAP), "");
        // The C locale's decoding ('?' per byte) agrees just as well.
        assertThat(RawProcess.arguments(cmdline, new String[] {"sbatch", "--wrap", "echo ?", ""}))
                .containsExactly("sbatch", "--wrap", RawText.decode(LATIN1_WRAP), "");
        assertThat(RawText.encode(RawProcess.arguments(cmdline, jvm).get(2))).containsExactly(LATIN1_WRAP);
    }

    @Test
    void aCommandLineThatDisagreesIsNotTrusted() {
        byte[] cmdline = block("java", "Main", "squeue", "-u", "alice");
        String[] jvm = {"squeue", "-u", "bob"};
        assertThat(RawProcess.arguments(cmdline, jvm)).containsExactly(jvm);
        assertThat(RawProcess.arguments(block("squeue"), new String[] {"squeue", "-a"}))
                .containsExactly("squeue", "-a");
    }

    @Test
    void theEnvironmentKeepsEveryByteAndTheFirstOfARepeatedName() {
        byte[] value = {'x', (byte) 0xe9, 'y'};
        byte[] environ = block("PATH=/bin", concat("V=", value), "PATH=/ignored", "NOEQUALS");
        Map<String, String> jvm = Map.of("PATH", "/bin", "V", "x\uFFFDy");
        Map<String, String> raw = RawProcess.environment(environ, jvm);
        assertThat(raw).containsOnlyKeys("PATH", "V").containsEntry("PATH", "/bin");
        assertThat(RawText.encode(raw.get("V"))).containsExactly(value);
    }

    @Test
    void anEnvironmentThatDisagreesIsNotTrusted() {
        Map<String, String> jvm = Map.of("PATH", "/bin", "HOME", "/root");
        assertThat(RawProcess.environment(block("PATH=/bin"), jvm)).isEqualTo(jvm);
        assertThat(RawProcess.environment(block("PATH=/usr/bin", "HOME=/root"), jvm))
                .isEqualTo(jvm);
    }

    private static byte[] concat(String a, byte[] b) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(a.getBytes(StandardCharsets.UTF_8));
        out.writeBytes(b);
        return out.toByteArray();
    }
}
