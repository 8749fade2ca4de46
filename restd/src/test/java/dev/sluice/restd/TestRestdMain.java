package dev.sluice.restd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The command line: where to listen, as slurmrestd's {@code [HOST]:PORT}. */
class TestRestdMain {
    @Test
    void listenAddresses() {
        assertThat(RestdMain.address("6820").getPort()).isEqualTo(6820);
        assertThat(RestdMain.address("6820").getAddress().isAnyLocalAddress()).isTrue();
        assertThat(RestdMain.address("127.0.0.1:6820").getAddress().isLoopbackAddress())
                .isTrue();
        assertThat(RestdMain.address("[::1]:6820").getAddress().isLoopbackAddress())
                .isTrue();
        assertThatThrownBy(() -> RestdMain.address("host:http")).hasMessage("not a port: http");
        assertThatThrownBy(() -> RestdMain.address("70000")).hasMessage("not a port: 70000");
    }

    @Test
    void withoutAnAddressItSaysHowToCallIt() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = RestdMain.run(new String[0], Map.of(), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(rc).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("Usage: sluice-restd");
    }

    @Test
    void aMissingConfigurationIsFatal() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = RestdMain.run(
                new String[] {"-f", "/nonexistent/slurm.conf", "127.0.0.1:0"},
                Map.of(),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(rc).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("sluice-restd: fatal:");
    }
}
