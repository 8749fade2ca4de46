package dev.sluice.ctld.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.ctld.config.CtldConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * After {@code scontrol reconfigure}, {@code show config} reports the files just read (and its
 * HASH_VAL their digest), as Slurm's does; cgroup.conf counts with a cgroup plugin.
 */
class TestReconfigureShowConfig {
    @TempDir
    Path dir;

    private Path write(String minJobAge) throws Exception {
        Path conf = dir.resolve("slurm.conf");
        Files.writeString(
                conf,
                String.join(
                        "\n",
                        "ClusterName=again",
                        "SlurmctldHost=localhost",
                        "StateSaveLocation=" + dir.resolve("state"),
                        "MinJobAge=" + minJobAge,
                        "NodeName=n1 CPUs=1 RealMemory=100",
                        "PartitionName=p Nodes=n1 Default=YES",
                        ""));
        return conf;
    }

    @Test
    void reconfigureReportsTheNewFiles() throws Exception {
        ClusterKeys.generate(dir.resolve(ClusterKeys.KEY_FILE));
        Files.writeString(dir.resolve("cgroup.conf"), "ConstrainCores=yes\n");
        Path conf = write("10");
        CtldConfig first = CtldMain.load(conf, false);
        assertThat(first.files().showConfig().value("MinJobAge")).hasValue("10 sec");
        assertThat(first.files().showConfig().sections().getFirst().settings())
                .contains(new dev.sluice.common.conf.show.ShowConfig.Setting("ConstrainCores", "yes"));
        String firstHash = first.files().showConfig().value("HASH_VAL").orElseThrow();

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
            assertThat(reloader.showConfig().value("MinJobAge")).hasValue("10 sec");
            write("20");
            server.reconfigurer().reconfigure();
            assertThat(reloader.showConfig().value("MinJobAge")).hasValue("20 sec");
            assertThat(reloader.showConfig().value("HASH_VAL"))
                    .isPresent()
                    .get()
                    .isNotEqualTo(firstHash);
        }
    }
}
