package dev.sluice.ctld.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.auth.ClusterKeys;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** As slurmctld with auth/slurm: no trustworthy cluster key, no controller. */
class TestCtldKeys {
    @TempDir
    Path dir;

    private Path conf() throws Exception {
        Path conf = dir.resolve("slurm.conf");
        Files.writeString(
                conf,
                String.join(
                        "\n",
                        "ClusterName=keys",
                        "SlurmctldHost=localhost",
                        "StateSaveLocation=" + dir.resolve("state"),
                        "NodeName=n1 CPUs=1 RealMemory=100",
                        "PartitionName=p Nodes=n1 Default=YES",
                        ""));
        return conf;
    }

    private String refusal(Path conf) throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = CtldMain.run(
                new String[] {"-f", conf.toString()},
                Map.of(),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(rc).isEqualTo(1);
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void without_slurm_key_the_controller_does_not_start() throws Exception {
        Path conf = conf();
        assertThat(refusal(conf))
                .startsWith("sluice-ctld: fatal: cluster key " + dir.resolve("slurm.key") + " not found");
        assertThat(dir.resolve("state")).doesNotExist();
    }

    @Test
    void a_key_other_users_can_read_is_refused() throws Exception {
        Path conf = conf();
        Path key = dir.resolve("slurm.key");
        ClusterKeys.generate(key);
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-r--r--"));
        assertThat(refusal(conf)).contains("must not be readable by other users");
    }
}
