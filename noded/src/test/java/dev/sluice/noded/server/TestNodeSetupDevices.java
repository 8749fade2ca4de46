package dev.sluice.noded.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.conf.GresConfReader;
import dev.sluice.noded.probe.gres.GresDiscovery;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The node's GRES device files by index, as the controller numbers them. */
class TestNodeSetupDevices {
    @Test
    void gresConfFilesInLineOrderAreTheIndices() throws Exception {
        var lines = GresConfReader.parse("""
                        NodeName=n1 Name=gpu Type=a100 File=/dev/nvidia[0-1]
                        NodeName=n1 Name=gpu Type=v100 File=/dev/nvidia2
                        NodeName=n2 Name=gpu File=/dev/nvidia[0-7]
                        NodeName=n1 Name=mps Count=200 File=/dev/nvidia[0-1]
                        NodeName=n1 Name=bandwidth Count=4G
                        """, "gres.conf").forNode("n1");
        assertThat(NodeSetup.gresDevices(lines, List.of()).filesByName())
                .isEqualTo(Map.of(
                        "gpu", List.of("/dev/nvidia0", "/dev/nvidia1", "/dev/nvidia2"),
                        "mps", List.of("/dev/nvidia0", "/dev/nvidia1")));
    }

    @Test
    void gpusNvmlFoundUseItsDeviceFiles() throws Exception {
        var lines = GresConfReader.parse("AutoDetect=nvml\n", "gres.conf").forNode("n1");
        List<GresDiscovery.Found> found = List.of(
                new GresDiscovery.Found("gpu", "a100", 1, List.of("/dev/nvidia0"), "0-15", "", List.of()),
                new GresDiscovery.Found("gpu", "a100", 1, List.of("/dev/nvidia1"), "16-31", "", List.of()));
        assertThat(NodeSetup.gresDevices(lines, found).filesByName())
                .isEqualTo(Map.of("gpu", List.of("/dev/nvidia0", "/dev/nvidia1")));
    }
}
