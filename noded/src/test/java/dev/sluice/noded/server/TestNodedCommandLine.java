package dev.sluice.noded.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code sluice-noded -h} lists what it takes; anything else is a usage error, as slurmd's. */
class TestNodedCommandLine {
    record Run(int rc, String out, String err) {}

    private static Run run(String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = NodedMain.run(
                args,
                Map.of("SLURM_CONF", "/nonexistent/slurm.conf"),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(rc, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void helpListsEveryOptionOnStandardOutputAndExitsZero() throws Exception {
        for (List<String> args : List.of(List.of("-h"), List.of("--help"), List.of("-D", "-Z", "-N", "d1", "--help"))) {
            Run r = run(args.toArray(String[]::new));
            assertThat(r.rc()).as("%s", args).isZero();
            assertThat(r.err()).isEmpty();
            assertThat(r.out())
                    .isEqualTo(NodedMain.OPTIONS.usage())
                    .startsWith("Usage: sluice-noded [OPTIONS]\n")
                    .contains(
                            "\n   --addr addr ", "\n   -C ", "\n   --conf 'params' ", "\n   --conf-server host[:port] ")
                    .contains("\n   -D ", "\n   --drain-reason text ", "\n   -f config ", "\n   -h, --help ")
                    .contains(
                            "\n   --key-file file ", "\n   --metrics-port port ", "\n   -N node ", "\n   --nvml-dump ")
                    .contains("\n   --port port ", "\n   --spool-dir dir ", "\n   -Z ");
        }
    }

    @Test
    void aWrongCommandLineIsAUsageErrorWithExitStatusOne() throws Exception {
        String usage = NodedMain.OPTIONS.usage();
        assertThat(run("--bogus")).isEqualTo(new Run(1, "", "sluice-noded: unrecognized option '--bogus'\n" + usage));
        assertThat(run("-Q")).isEqualTo(new Run(1, "", "sluice-noded: invalid option -- 'Q'\n" + usage));
        assertThat(run("-N")).isEqualTo(new Run(1, "", "sluice-noded: option requires an argument -- 'N'\n" + usage));
        assertThat(run("-Z", "--conf"))
                .isEqualTo(new Run(1, "", "sluice-noded: option '--conf' requires an argument\n" + usage));
        assertThat(run("--port", "6818x"))
                .isEqualTo(new Run(1, "", "sluice-noded: --port: invalid port '6818x'\n" + usage));
    }
}
