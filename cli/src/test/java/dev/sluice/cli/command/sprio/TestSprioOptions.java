package dev.sluice.cli.command.sprio;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.testing.TestingInvocations;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** sprio's option checks made before it asks the controller anything (Slurm 22.05, compat 245). */
class TestSprioOptions {
    @TempDir
    Path dir;

    private TestingInvocations.Output sprio(String... args) {
        return TestingInvocations.run(new SprioCommand(), TestingInvocations.invocation(dir, Map.of(), "", args));
    }

    @Test
    void longWithAFormatIsRefusedWhicheverComesFirst() {
        String fatal =
                "sprio: fatal: Options -o(--format) and -l(--long) are mutually exclusive. Please remove one and retry.\n";
        for (String[] args : new String[][] {{"-l", "-o", "%i %b"}, {"--format=%i", "--long"}}) {
            TestingInvocations.Output o = sprio(args);
            assertThat(o.exitCode()).isEqualTo(1);
            assertThat(o.err()).isEqualTo(fatal);
            assertThat(o.out()).isEmpty();
        }
    }
}
