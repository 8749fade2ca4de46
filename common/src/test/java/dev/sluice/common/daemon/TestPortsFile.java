package dev.sluice.common.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The file a daemon started on port 0 tells its ports in. */
class TestPortsFile {
    @TempDir
    Path dir;

    @Test
    void writtenPortsReadBackInOrderAndNothingElseIsLeftBeside() throws Exception {
        Path file = dir.resolve("run/ctld.ports");
        Map<String, Integer> ports = new LinkedHashMap<>();
        ports.put("port", 40123);
        ports.put("grpc", 40999);
        ports.put("metrics", 41000);
        PortsFile.write(file, ports);
        assertThat(Files.readString(file)).isEqualTo("port=40123\ngrpc=40999\nmetrics=41000\n");
        assertThat(PortsFile.read(file).orElseThrow())
                .containsExactly(Map.entry("port", 40123), Map.entry("grpc", 40999), Map.entry("metrics", 41000));
        try (var listing = Files.list(file.getParent())) {
            assertThat(listing.map(p -> p.getFileName().toString())).containsExactly("ctld.ports");
        }
        PortsFile.write(file, Map.of("port", 1));
        assertThat(PortsFile.read(file).orElseThrow()).containsExactly(Map.entry("port", 1));
    }

    @Test
    void absentWhileTheDaemonHasNotWrittenIt() throws Exception {
        assertThat(PortsFile.read(dir.resolve("none.ports"))).isEmpty();
    }

    @Test
    void aLineThatIsNotAPortIsRefused() {
        assertThatThrownBy(() -> PortsFile.parse("port=70000\n")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PortsFile.parse("port\n")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PortsFile.parse("port=x\n")).isInstanceOf(IllegalArgumentException.class);
    }
}
