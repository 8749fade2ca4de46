package dev.sluice.cli.command.sbatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.cli.command.submit.SubmitException;
import org.junit.jupiter.api.Test;

/** #SBATCH scanning rules, each checked against Slurm 22.05's sbatch on the same script. */
class TestScriptDirectives {
    @Test
    void scansUntilTheFirstCommand() throws SubmitException {
        String script = """
                #!/bin/bash
                # comment
                  #SBATCH -J indented-is-a-comment

                #SBATCH --job-name="my job" # trailing comment
                #SBATCH -N1 --comment 'a b'
                #SBATCH--nice=5
                #sbatch -p lower-case-is-a-comment
                echo hi
                #SBATCH --comment=after-the-first-command
                """;
        assertThat(ScriptDirectives.scan(script, "t1.sh"))
                .containsExactly("--job-name=my job", "-N1", "--comment", "a b", "--nice=5");
    }

    @Test
    void unmatchedQuoteIsFatalWithFileAndLine() {
        // Slurm: sbatch: fatal: b3.sh: line 2: Unmatched `"` in [ "unterminated]
        assertThatThrownBy(() -> ScriptDirectives.scan("#!/bin/sh\n#SBATCH -J \"unterminated\n", "b3.sh"))
                .isInstanceOf(SubmitException.class)
                .hasMessage("fatal: b3.sh: line 2: Unmatched `\"` in [ \"unterminated]");
    }

    @Test
    void backslashIsNotAnEscape() throws SubmitException {
        // Slurm splits "a\ b" into "a\" and "b" (then rejects "b" as an invalid directive).
        assertThat(ScriptDirectives.scan("#!/bin/sh\n#SBATCH -J a\\ b\n", "b4.sh"))
                .containsExactly("-J", "a\\", "b");
    }
}
