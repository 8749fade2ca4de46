package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ports daemons started on port 0 reported, written into the files that name them. */
class TestStampPorts {
    @TempDir
    Path dir;

    private LocalClusterLayout unbound(int dbd) {
        int u = LocalClusterLayout.UNBOUND;
        return new LocalClusterLayout(dir, 2, 2, 1, 2000, 0, u, u, Collections.nCopies(2, u), dbd, 0);
    }

    @Test
    void beforeTheDaemonsReportTheFilesNameNoPortAtAll() {
        LocalClusterLayout layout = unbound(LocalClusterLayout.UNBOUND);
        assertThat(layout.slurmConf())
                .doesNotContain("SlurmctldPort=")
                .doesNotContain("AccountingStoragePort=")
                .doesNotContain(" Port=")
                .contains("AccountingStorageType=accounting_storage/slurmdbd\n");
        assertThat(layout.sluiceConf()).isEmpty();
        assertThat(unbound(0).slurmConf()).doesNotContain("AccountingStorage");
    }

    @Test
    void reportedPortsAreWrittenInOnceEachAndTheRestOfTheFileStays() throws Exception {
        LocalClusterLayout layout = unbound(LocalClusterLayout.UNBOUND);
        LocalClusterFiles.write(layout, dir.resolve("bin"));
        String before = Files.readString(layout.slurmConfPath());
        LocalClusterFiles.stampPorts(layout.withPorts(LocalClusterLayout.UNBOUND, LocalClusterLayout.UNBOUND, 41000));
        LocalClusterLayout bound = layout.withPorts(40000, 40100, 41000);
        LocalClusterFiles.stampPorts(bound);
        LocalClusterFiles.stampPorts(bound);
        String after = Files.readString(layout.slurmConfPath());
        assertThat(after).isEqualTo(before + "AccountingStoragePort=41000\nSlurmctldPort=40000\n");
        assertThat(Files.readString(layout.etc().resolve("sluice.conf"))).isEqualTo("SlurmctldGrpcPort=40100\n");
        LocalClusterFiles.stampNodePorts(bound, Map.of("node1", 42001, "node2", 42002));
        assertThat(Files.readString(layout.slurmConfPath()))
                .contains(" RealMemory=2000 State=UNKNOWN Port=42001\n")
                .contains(" RealMemory=2000 State=UNKNOWN Port=42002\n");
    }

    @Test
    void aNodeLineOfSeveralNodesNamesTheirPortsInOrderAndLosesItsOwn() {
        String conf = "NodeName=DEFAULT CPUs=4\nNodeName=n[1-2] Port=6821,6822 CPUs=4\nNodeName=big CPUs=8\n";
        assertThat(LocalClusterFiles.withNodePorts(conf, Map.of("n1", 1001, "n2", 1002, "big", 1003)))
                .isEqualTo("NodeName=DEFAULT CPUs=4\nNodeName=n[1-2] CPUs=4 Port=1001,1002\n"
                        + "NodeName=big CPUs=8 Port=1003\n");
        // A node without a reported port keeps its line as it was.
        assertThat(LocalClusterFiles.withNodePorts(conf, Map.of("n1", 1001))).isEqualTo(conf);
    }
}
