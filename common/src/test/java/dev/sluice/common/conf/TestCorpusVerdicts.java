package dev.sluice.common.conf;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * Compares {@link ConfigCheck} with real Slurm 22.05.8's verdicts on the shared corpus of public
 * configurations ({@code /work/shared/corpus}, or {@code -Dsluice.corpus=DIR}); skipped where the
 * corpus is absent, since it is not part of the repository. The corpus verdicts come from Slurm's
 * configuration parser only; the differences below are cases where slurmctld itself (not its
 * parser) would also refuse, or where Sluice deliberately does not copy a check.
 */
@EnabledIf("corpusPresent")
class TestCorpusVerdicts {

    static final Map<String, String> KNOWN_DIFFERENCES = Map.of(
            "21-romxero-slurm_conf_mother-slurm.conf",
            "NodeAddr lists 2 addresses for 100 nodes and a partition names an undefined node set; slurmctld 22.05"
                    + " would stop at start-up (\"At least as many NodeAddr are required as NodeName\").",
            "29-mknoxnv-ubuntu-slurm-slurm.conf",
            "Slurm refuses a PluginDir that does not exist on the checking host; Sluice loads no plugins and only"
                    + " warns.");

    static Path corpus() {
        return Path.of(System.getProperty("sluice.corpus", "/work/shared/corpus"))
                .resolve("configs");
    }

    static boolean corpusPresent() {
        return Files.isRegularFile(corpus().resolve("VERDICTS.tsv"));
    }

    @Test
    void sameVerdictAsRealSlurmExceptDocumentedDifferences() throws Exception {
        List<String> mismatches = new ArrayList<>();
        int total = 0;
        for (String row : Files.readAllLines(corpus().resolve("VERDICTS.tsv"))) {
            String[] f = row.split("\t");
            if (f.length < 6 || !f[4].equals("slurm.conf")) {
                continue;
            }
            total++;
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int rc = ConfigCheck.run(
                    corpus().resolve(f[0]), new PrintStream(new ByteArrayOutputStream()), new PrintStream(err));
            boolean slurmOk = f[5].equals("ok");
            boolean agree = slurmOk == (rc == 0);
            if (agree == KNOWN_DIFFERENCES.containsKey(f[0])) {
                mismatches.add(f[0] + ": Slurm said " + f[5] + "; Sluice rc=" + rc + " "
                        + err.toString().strip());
            }
        }
        assertThat(total).isGreaterThan(0);
        assertThat(mismatches).isEmpty();
    }

    @Test
    void everyCorpusGresAndCgroupFileIsReadOrRejectedWithALocation() throws Exception {
        for (String row : Files.readAllLines(corpus().resolve("VERDICTS.tsv"))) {
            String[] f = row.split("\t");
            if (f.length < 6 || f[4].equals("slurm.conf") || f[0].equals("file")) {
                continue;
            }
            Path p = corpus().resolve(f[0]);
            try {
                if (f[4].equals("gres.conf")) {
                    GresConfReader.read(p);
                } else {
                    CgroupConfReader.read(p);
                }
            } catch (ConfigException e) {
                assertThat(e.getMessage()).startsWith(p.toString() + ":");
            }
        }
    }
}
