package dev.sluice.ctld.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.ctld.config.CtldConfig;
import dev.sluice.ctld.limits.Enforcement;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a running controller takes from {@code scontrol reconfigure}, as Slurm 22.05's does:
 * {@code Licenses=} at once (the compat scenarios add them so, {@code @slurm.conf}, and real Slurm
 * then lists and grants them); {@code AccountingStorageEnforce} not at all (there, after adding
 * {@code =limits} and reconfiguring, {@code scontrol show config} reports the new value but jobs
 * over a QOS's MaxTRESPerAccount still start; only a restarted slurmctld holds them back).
 */
class TestReconfigureServer {
    @TempDir
    Path dir;

    private Path write(String... extra) throws Exception {
        Path conf = dir.resolve("slurm.conf");
        Files.writeString(
                conf,
                String.join(
                                "\n",
                                "ClusterName=rec",
                                "SlurmctldHost=localhost",
                                "StateSaveLocation=" + dir.resolve("state"),
                                // Nothing listens there: the controller keeps asking, which is enough here.
                                "AccountingStorageType=accounting_storage/slurmdbd",
                                "AccountingStorageHost=127.0.0.1",
                                "AccountingStoragePort=9",
                                "NodeName=n1 CPUs=1 RealMemory=100",
                                "PartitionName=p Nodes=n1 Default=YES")
                        + "\n"
                        + String.join("\n", extra)
                        + "\n");
        return conf;
    }

    /** A controller on the files as written now, and what {@code scontrol reconfigure} calls. */
    private record Running(CtldServer server, ConfigReloader reloader) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            server.close();
        }
    }

    private Running start() throws Exception {
        ClusterKeys.generate(dir.resolve(ClusterKeys.KEY_FILE));
        Path conf = write();
        CtldConfig first = CtldMain.load(conf, false);
        ConfigReloader reloader = new ConfigReloader(
                first.files().configFiles(), first.files().showConfig(), () -> CtldMain.load(conf, false));
        return new Running(
                CtldServer.start(
                        first.withPorts(0, 0),
                        Clock.systemUTC(),
                        "127.0.0.1",
                        false,
                        e -> {},
                        (effect, image) -> {},
                        reloader,
                        -1),
                reloader);
    }

    @Test
    void reconfigureBringsTheNewLicensesToTheScheduler() throws Exception {
        try (Running ctld = start()) {
            assertThat(ctld.server
                            .loop()
                            .scheduler()
                            .config()
                            .select()
                            .licenses()
                            .isEmpty())
                    .isTrue();
            write("Licenses=foo:4,bar");
            ctld.server.reconfigurer().reconfigure();
            assertThat(ctld.server
                            .loop()
                            .scheduler()
                            .config()
                            .select()
                            .licenses()
                            .counts())
                    .isEqualTo(Map.of("bar", 1L, "foo", 4L));
            write();
            ctld.server.reconfigurer().reconfigure();
            assertThat(ctld.server
                            .loop()
                            .scheduler()
                            .config()
                            .select()
                            .licenses()
                            .isEmpty())
                    .isTrue();
        }
    }

    @Test
    void reconfigureDoesNotSwitchLimitsOn() throws Exception {
        try (Running ctld = start()) {
            assertThat(ctld.server.loop().enforced().enforcement()).isEqualTo(Enforcement.NONE);
            write("AccountingStorageEnforce=limits");
            ctld.server.reconfigurer().reconfigure();
            assertThat(ctld.reloader.showConfig().value("AccountingStorageEnforce"))
                    .hasValue("associations,limits");
            assertThat(ctld.server.loop().enforced().enforcement()).isEqualTo(Enforcement.NONE);
        }
    }
}
