package dev.sluice.ctld.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code sluice-ctld -h} lists what it takes; anything else is a usage error, as slurmctld's. */
class TestCtldCommandLine {
    record Run(int rc, String out, String err) {}

    private static Run run(String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = CtldMain.run(
                args,
                // A configuration that is not there: nothing here may get as far as reading it.
                Map.of("SLURM_CONF", "/nonexistent/slurm.conf"),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(rc, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void helpListsEveryOptionOnStandardOutputAndExitsZero() throws Exception {
        for (List<String> args :
                List.of(List.of("-h"), List.of("--help"), List.of("-D", "-f", "/x/slurm.conf", "-h"))) {
            Run r = run(args.toArray(String[]::new));
            assertThat(r.rc()).as("%s", args).isZero();
            assertThat(r.err()).isEmpty();
            assertThat(r.out())
                    .isEqualTo(CtldMain.OPTIONS.usage())
                    .startsWith("Usage: sluice-ctld [OPTIONS]\n")
                    .contains("\n   -f file ", "\n   -h, --help ", "\n   --bind addr ", "\n   --check-config file ")
                    .contains("\n   --metrics-port port ", "\n   --truncate-corrupt-journal ", "\n   -D ", "\n   -R ")
                    .contains("\n   --port port ", "\n   --grpc-port port ", "\n   --ports-file file ");
        }
    }

    @Test
    void aWrongCommandLineIsAUsageErrorWithExitStatusOne() throws Exception {
        String usage = CtldMain.OPTIONS.usage();
        assertThat(run("--bogus")).isEqualTo(new Run(1, "", "sluice-ctld: unrecognized option '--bogus'\n" + usage));
        assertThat(run("-Q")).isEqualTo(new Run(1, "", "sluice-ctld: invalid option -- 'Q'\n" + usage));
        assertThat(run("-D", "-f"))
                .isEqualTo(new Run(1, "", "sluice-ctld: option requires an argument -- 'f'\n" + usage));
        assertThat(run("--metrics-port", "http"))
                .isEqualTo(new Run(1, "", "sluice-ctld: --metrics-port: invalid port 'http'\n" + usage));
    }
}
