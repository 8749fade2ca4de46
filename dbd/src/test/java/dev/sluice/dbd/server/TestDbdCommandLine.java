package dev.sluice.dbd.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code sluice-dbd -h} lists what it takes; anything else is a usage error. */
class TestDbdCommandLine {
    record Run(int rc, String out, String err) {}

    private static Run run(String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = DbdMain.run(
                args,
                Map.of("SLURMDBD_CONF", "/nonexistent/slurmdbd.conf"),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(rc, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void helpListsEveryOptionOnStandardOutputAndExitsZero() throws Exception {
        for (List<String> args : List.of(List.of("-h"), List.of("--help"), List.of("-D", "--port", "0", "-h"))) {
            Run r = run(args.toArray(String[]::new));
            assertThat(r.rc()).as("%s", args).isZero();
            assertThat(r.err()).isEmpty();
            assertThat(r.out())
                    .isEqualTo(DbdMain.OPTIONS.usage())
                    .startsWith("Usage: sluice-dbd [OPTIONS]\n")
                    .contains("\n   --bind addr ", "\n   -D ", "\n   --data-dir dir ", "\n   -f file ")
                    .contains("\n   --grpc-port port ", "\n   -h, --help ", "\n   --jdbc-url url ")
                    .contains("\n   --key-file file ", "\n   --port port ", "\n   --ports-file file ", "\n   -R ");
        }
    }

    @Test
    void aWrongCommandLineIsAUsageErrorWithExitStatusOne() throws Exception {
        String usage = DbdMain.OPTIONS.usage();
        assertThat(run("--bogus")).isEqualTo(new Run(1, "", "sluice-dbd: unrecognized option '--bogus'\n" + usage));
        assertThat(run("-x")).isEqualTo(new Run(1, "", "sluice-dbd: invalid option -- 'x'\n" + usage));
        assertThat(run("--jdbc-url"))
                .isEqualTo(new Run(1, "", "sluice-dbd: option '--jdbc-url' requires an argument\n" + usage));
        assertThat(run("--grpc-port", "-1"))
                .isEqualTo(new Run(1, "", "sluice-dbd: --grpc-port: invalid port '-1'\n" + usage));
    }
}
