package dev.sluice.common.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.common.daemon.DaemonOptions.Given;
import dev.sluice.common.daemon.DaemonOptions.Option;
import dev.sluice.common.daemon.DaemonOptions.UsageException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The shared daemon command line: getopt's forms and error texts, slurmd's usage layout. */
class TestDaemonOptions {
    private static final DaemonOptions OPTIONS = DaemonOptions.of(
            "sluice-test",
            List.of(
                    Option.flag("-D", "Run daemon in foreground."),
                    Option.withArgument("-f", "config", "Read configuration from the specified file."),
                    DaemonOptions.HELP,
                    Option.withArgument("--port", "N", "Listen on port N."),
                    Option.flag("-Z", "Start as Dynamic Normal node.")));

    private static DaemonOptions.Parsed parse(String... args) throws UsageException {
        return OPTIONS.parse(List.of(args));
    }

    @Test
    void shortAndLongFormsWithTheirValues() throws Exception {
        assertThat(parse("-D", "-f", "/etc/a.conf", "--port", "6818", "-Z").given())
                .containsExactly(
                        new Given("-D", null),
                        new Given("-f", "/etc/a.conf"),
                        new Given("--port", "6818"),
                        new Given("-Z", null));
        assertThat(parse("-DZf/etc/b.conf", "--port=0").given())
                .containsExactly(
                        new Given("-D", null),
                        new Given("-Z", null),
                        new Given("-f", "/etc/b.conf"),
                        new Given("--port", "0"));
        assertThat(parse("-f", "a", "-f", "b").last("-f")).contains("b");
    }

    @Test
    void helpInBothSpellings() throws Exception {
        assertThat(parse("-h").help()).isTrue();
        assertThat(parse("-D", "--help").help()).isTrue();
        assertThat(parse("-D").help()).isFalse();
    }

    @Test
    void wrongCommandLinesGetGetoptsTexts() {
        assertThatThrownBy(() -> parse("-Q")).hasMessage("sluice-test: invalid option -- 'Q'");
        assertThatThrownBy(() -> parse("--bogus")).hasMessage("sluice-test: unrecognized option '--bogus'");
        assertThatThrownBy(() -> parse("-D", "-f")).hasMessage("sluice-test: option requires an argument -- 'f'");
        assertThatThrownBy(() -> parse("--port")).hasMessage("sluice-test: option '--port' requires an argument");
        assertThatThrownBy(() -> parse("--help=yes"))
                .hasMessage("sluice-test: option '--help' doesn't allow an argument");
        // No abbreviations: a unit file's "--po" would silently mean something else later.
        assertThatThrownBy(() -> parse("--po", "1")).hasMessage("sluice-test: unrecognized option '--po'");
        assertThatThrownBy(() -> parse("stray")).hasMessage("sluice-test: unexpected argument 'stray'");
    }

    @Test
    void portsAreNumbersInRange() throws Exception {
        assertThat(OPTIONS.port(parse("--port", "6818"), "--port")).contains(6818);
        assertThat(OPTIONS.port(parse(), "--port")).isEmpty();
        assertThatThrownBy(() -> OPTIONS.port(parse("--port", "x1"), "--port"))
                .hasMessage("sluice-test: --port: invalid port 'x1'");
        assertThatThrownBy(() -> OPTIONS.port(parse("--port", "65536"), "--port"))
                .hasMessage("sluice-test: --port: invalid port '65536'");
    }

    @Test
    void usageListsEveryOptionAlignedAsSlurmdDoes() {
        assertThat(OPTIONS.usage())
                .isEqualTo("Usage: sluice-test [OPTIONS]\n"
                        + "   -D          Run daemon in foreground.\n"
                        + "   -f config   Read configuration from the specified file.\n"
                        + "   -h, --help  Print this help message.\n"
                        + "   --port N    Listen on port N.\n"
                        + "   -Z          Start as Dynamic Normal node.\n");
    }

    @Test
    void helpGoesToStandardOutputAndARefusalToStandardErrorWithTheUsage() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThat(OPTIONS.help(new PrintStream(out, true, StandardCharsets.UTF_8)))
                .isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(OPTIONS.usage());
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = OPTIONS.refuse(
                new UsageException("sluice-test: invalid option -- 'Q'"),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(rc).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .isEqualTo("sluice-test: invalid option -- 'Q'\n" + OPTIONS.usage());
    }
}
