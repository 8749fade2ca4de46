package dev.sluice.noded.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.text.RawText;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TestJobEnvironmentFile {
    private static String raw(int... bytes) {
        byte[] b = new byte[bytes.length];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) bytes[i];
        }
        return RawText.decode(b);
    }

    @Test
    void whatTheLocaleCarriesIsInheritedAndNoFileIsNeeded() {
        Map<String, String> env = Map.of("PATH", "/usr/bin:/bin", "GREETING", "d\u00e9j\u00e0 vu");
        JobEnvironmentFile f = JobEnvironmentFile.split(env, StandardCharsets.UTF_8);
        assertThat(f.inherited()).isEqualTo(env);
        assertThat(f.sourced()).isEmpty();
        assertThat(f.altered()).isEmpty();
    }

    @Test
    void aByteThatIsNotUtf8GoesToTheFileQuotedForTheShell() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PATH", "/usr/bin:/bin");
        env.put("V", raw('x', 0xe9, '\'', 'y', '\n', 'z'));
        JobEnvironmentFile f = JobEnvironmentFile.split(env, StandardCharsets.UTF_8);
        assertThat(f.inherited()).containsOnlyKeys("PATH");
        assertThat(f.sourced())
                .containsExactly(concat(
                        "export V='x".getBytes(StandardCharsets.US_ASCII),
                        new byte[] {(byte) 0xe9},
                        "'\\''y\nz'\n".getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void underTheCLocaleEvenValidUtf8NeedsTheFile() {
        // A daemon started without LANG: the JDK would pass "déjà" as "d?j? ".
        JobEnvironmentFile f =
                JobEnvironmentFile.split(Map.of("GREETING", "d\u00e9j\u00e0"), StandardCharsets.US_ASCII);
        assertThat(f.inherited()).isEmpty();
        assertThat(new String(f.sourced(), StandardCharsets.UTF_8)).isEqualTo("export GREETING='d\u00e9j\u00e0'\n");
    }

    @Test
    void aNameNoShellCanSetIsInheritedAndReported() {
        String value = raw('a', 0xff);
        JobEnvironmentFile f = JobEnvironmentFile.split(Map.of("BASH_FUNC_f%%", value), StandardCharsets.UTF_8);
        assertThat(f.inherited()).containsEntry("BASH_FUNC_f%%", value);
        assertThat(f.sourced()).isEmpty();
        assertThat(f.altered()).containsExactly("BASH_FUNC_f%%");
    }

    private static byte[] concat(byte[]... parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
