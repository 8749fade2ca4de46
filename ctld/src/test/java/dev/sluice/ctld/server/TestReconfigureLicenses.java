package dev.sluice.ctld.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.ctld.config.CtldConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scontrol reconfigure} rereads {@code Licenses=}, as Slurm 22.05's does: the compat
 * scenarios add them so ({@code @slurm.conf}) and real Slurm then lists and grants them at once.
 */
class TestReconfigureLicenses {
    @TempDir
    Path dir;

    private Path write(String... extra) throws Exception {
        Path conf = dir.resolve("slurm.conf");
        Files.writeString(
                conf,
                String.join(
                                "\n",
                                "ClusterName=lic",
                                "SlurmctldHost=localhost",
                                "StateSaveLocation=" + dir.resolve("state"),
                                "NodeName=n1 CPUs=1 RealMemory=100",
                                "PartitionName=p Nodes=n1 Default=YES")
                        + "\n"
                        + String.join("\n", extra)
                        + "\n");
        return conf;
    }

    @Test
    void reconfigureBringsTheNewLicensesToTheScheduler() throws Exception {
        ClusterKeys.generate(dir.resolve(ClusterKeys.KEY_FILE));
        Path conf = write();
        CtldConfig first = CtldMain.load(conf, false);
        ConfigReloader reloader = new ConfigReloader(
                first.files().configFiles(), first.files().showConfig(), () -> CtldMain.load(conf, false));
        try (CtldServer server = CtldServer.start(
                first.withPorts(0, 0),
                Clock.systemUTC(),
                "127.0.0.1",
                false,
                e -> {},
                (effect, image) -> {},
                reloader,
                -1)) {
            assertThat(server.loop().scheduler().config().select().licenses().isEmpty())
                    .isTrue();
            write("Licenses=foo:4,bar");
            reloader.reconfigure();
            assertThat(server.loop().scheduler().config().select().licenses().counts())
                    .isEqualTo(Map.of("bar", 1L, "foo", 4L));
            write();
            reloader.reconfigure();
            assertThat(server.loop().scheduler().config().select().licenses().isEmpty())
                    .isTrue();
        }
    }
}
