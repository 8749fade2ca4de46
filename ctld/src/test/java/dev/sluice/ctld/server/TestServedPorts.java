package dev.sluice.ctld.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.site.SluiceConf;
import dev.sluice.ctld.config.ConfigText;
import dev.sluice.ctld.config.CtldConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A controller started on port 0 serves configless nodes files that name the ports it bound;
 * {@code --port} and {@code --grpc-port} over the files' ports.
 */
class TestServedPorts {
    @TempDir
    Path dir;

    private static String text(Map<String, byte[]> files, String name) {
        return new String(files.get(name), StandardCharsets.UTF_8);
    }

    @Test
    void theServedFilesNameTheBoundPortsInPlaceOfTheFilesOnes() {
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put("slurm.conf", "ClusterName=c\nSlurmctldPort=6817\nNodeName=n1 Port=6818\n".getBytes());
        files.put("gres.conf", "AutoDetect=off\n".getBytes());
        Map<String, byte[]> served = ServedPorts.stamp(files, 40001, 40002);
        assertThat(text(served, "slurm.conf")).isEqualTo("ClusterName=c\nSlurmctldPort=40001\nNodeName=n1 Port=6818\n");
        assertThat(text(served, SluiceConf.FILE_NAME)).isEqualTo("SlurmctldGrpcPort=40002\n");
        assertThat(text(served, "gres.conf")).isEqualTo("AutoDetect=off\n");
        // The node daemon reads them as any slurm.conf and sluice.conf.
        assertThat(SluiceConf.parse(text(served, SluiceConf.FILE_NAME), "sluice.conf")
                        .slurmctldGrpcPort())
                .hasValue(40002);
    }

    @Test
    void aPortTheFilesDoNotNameIsAddedAndARepeatedOneNamedOnce() {
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put("slurm.conf", "ClusterName=c\n".getBytes());
        files.put(SluiceConf.FILE_NAME, "slurmctldgrpcport=1\nSlurmctldGrpcPort=2\n".getBytes());
        Map<String, byte[]> served = ServedPorts.stamp(files, 40001, 40002);
        assertThat(text(served, "slurm.conf")).isEqualTo("ClusterName=c\nSlurmctldPort=40001\n");
        assertThat(text(served, SluiceConf.FILE_NAME)).isEqualTo("SlurmctldGrpcPort=40002\n\n");
    }

    @Test
    void withoutConfiglessNothingIsServed() {
        assertThat(ServedPorts.stamp(Map.of(), 1, 2)).isEmpty();
    }

    @Test
    void theCommandLinesPortsOverTheFiles() throws Exception {
        CtldConfig files = ConfigText.ctldConfig(
                dir,
                "ClusterName=c\nSlurmctldHost=h\nSlurmctldPort=6817\nStateSaveLocation=" + dir + "\n"
                        + "NodeName=n1 CPUs=1\nPartitionName=p Nodes=n1\n");
        SluiceConf none = SluiceConf.empty();
        assertThat(CtldMain.listening(files, null, null, none)).isSameAs(files);
        CtldConfig zero = CtldMain.listening(files, 0, null, none);
        assertThat(zero.controller().slurmctldPort()).isZero();
        assertThat(zero.controller().grpcPort()).isZero();
        CtldConfig pinned = CtldMain.listening(files, 7000, null, none);
        assertThat(pinned.controller().slurmctldPort()).isEqualTo(7000);
        assertThat(pinned.controller().grpcPort()).isEqualTo(7100);
        // Ports given on the command line, even fixed ones, are what the controller serves and
        // reports (CtldServer wraps its files in ServedPorts), not the files' 6817.
        assertThat(pinned.controller().portsAsFiles()).isFalse();
        assertThat(files.controller().portsAsFiles()).isTrue();
        CtldConfig named = CtldMain.listening(files, 7000, null, SluiceConf.parse("SlurmctldGrpcPort=9000\n", "s"));
        assertThat(named.controller().grpcPort()).isEqualTo(9000);
        CtldConfig both = CtldMain.listening(files, 0, 7200, none);
        assertThat(both.controller().slurmctldPort()).isZero();
        assertThat(both.controller().grpcPort()).isEqualTo(7200);
        assertThat(files.controller().slurmctldPort()).isEqualTo(6817);
    }
}
