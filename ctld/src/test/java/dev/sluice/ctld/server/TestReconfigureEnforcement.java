package dev.sluice.ctld.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.ctld.config.CtldConfig;
import dev.sluice.ctld.limits.Enforcement;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scontrol reconfigure} leaves {@code AccountingStorageEnforce} as the controller started
 * with, as Slurm 22.05's does: there, after adding {@code AccountingStorageEnforce=limits} and
 * reconfiguring, {@code scontrol show config} reports the new value but jobs over a QOS's
 * MaxTRESPerAccount still start; only a restarted slurmctld holds them back.
 */
class TestReconfigureEnforcement {
    @TempDir
    Path dir;

    private Path write(String... extra) throws Exception {
        Path conf = dir.resolve("slurm.conf");
        Files.writeString(
                conf,
                String.join(
                                "\n",
                                "ClusterName=enf",
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

    @Test
    void reconfigureDoesNotSwitchLimitsOn() throws Exception {
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
            assertThat(server.loop().enforced().enforcement()).isEqualTo(Enforcement.NONE);
            write("AccountingStorageEnforce=limits");
            reloader.reconfigure();
            assertThat(reloader.showConfig().value("AccountingStorageEnforce")).hasValue("associations,limits");
            assertThat(server.loop().enforced().enforcement()).isEqualTo(Enforcement.NONE);
        }
    }
}
