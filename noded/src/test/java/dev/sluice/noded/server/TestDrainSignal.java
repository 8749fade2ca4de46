package dev.sluice.noded.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Drain-and-exit starts on SIGUSR1 and on nothing else a JVM does by itself: under Java Flight
 * Recorder's sampling (which suspends threads with SIGUSR2) a SIGUSR2 handler fired about 50
 * times a second, so profiling a node daemon drained its node.
 */
class TestDrainSignal {
    private static Process probe(String mode) throws Exception {
        return new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        DrainSignalProbe.class.getName(),
                        mode)
                .redirectErrorStream(true)
                .start();
    }

    @Test
    void flightRecorderSamplingDoesNotStartADrain() throws Exception {
        Process p = probe("jfr");
        // With a handler on the JVM's own signal the sampler waits for threads that never
        // answer: the probe hangs instead of finishing, which fails here too.
        boolean finished = p.waitFor(60, TimeUnit.SECONDS);
        if (!finished) {
            p.destroyForcibly();
        }
        assertThat(finished).as("the probe finished its 50 samples").isTrue();
        assertThat(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                .contains("drains 0 ");
    }

    @Test
    void sigusr1StartsTheDrainOnce() throws Exception {
        Process p = probe("wait");
        BufferedReader lines = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String pid = lines.readLine();
        assertThat(pid).isEqualTo(Long.toString(p.pid()));
        for (int i = 0; i < 2; i++) {
            new ProcessBuilder("kill", "-USR1", pid).start().waitFor();
        }
        assertThat(lines.readLine()).isEqualTo("drained 1");
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
}
