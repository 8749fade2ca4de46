package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TestJvmCommand {
    @Test
    void theRolesOwnOptionsComeAfterTheDefaultsSoTheyWin() {
        List<String> command = JvmCommand.of(
                "/jdk/bin/java",
                "NODED",
                List.of("-Xmx256m", "-XX:+UseSerialGC"),
                List.of("-cp", "lib/*", "dev.sluice.noded.server.NodedMain", "-D"),
                Map.of(
                        "SLUICE_NODED_JAVA_OPTS",
                        "  -Xmx1g   -XX:TieredStopAtLevel=1 ",
                        "SLUICE_CTLD_JAVA_OPTS",
                        "-Xmx9g"));
        assertThat(command)
                .containsExactly(
                        "/jdk/bin/java",
                        "-Xmx256m",
                        "-XX:+UseSerialGC",
                        "-Xmx1g",
                        "-XX:TieredStopAtLevel=1",
                        "-cp",
                        "lib/*",
                        "dev.sluice.noded.server.NodedMain",
                        "-D");
    }

    @Test
    void withoutTheVariableTheDefaultsStand() {
        assertThat(JvmCommand.of(
                        "java", "CTLD", List.of("-Xmx512m"), List.of("Main"), Map.of("SLUICE_CTLD_JAVA_OPTS", " ")))
                .containsExactly("java", "-Xmx512m", "Main");
    }
}
