package dev.sluice.noded.conf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The configless cache: what is stored, and that it is used when no controller answers. */
class TestConfigFetcher {
    @TempDir
    Path dir;

    @Test
    void serversParseWithSlurmsDefaultPort() {
        assertThat(ConfigFetcher.Server.parse("ctl1:7000,ctl2"))
                .containsExactly(new ConfigFetcher.Server("ctl1", 7000), new ConfigFetcher.Server("ctl2", 6817));
    }

    @Test
    void theCacheHoldsExactlyTheServedFiles() throws IOException {
        Path cache = dir.resolve("conf-cache");
        ConfigFetcher.store(Map.of("slurm.conf", bytes("a"), "gres.conf", bytes("b")), cache);
        ConfigFetcher.store(Map.of("slurm.conf", bytes("c")), cache);
        assertThat(cache.resolve("slurm.conf")).hasContent("c");
        assertThat(cache.resolve("gres.conf")).doesNotExist();
        assertThatThrownBy(() -> ConfigFetcher.store(Map.of("../x", bytes("x")), cache))
                .hasMessage("refusing to cache a file named ../x");
    }

    @Test
    void withTheControllerAwayTheCacheIsUsed() throws IOException {
        Path cache = dir.resolve("conf-cache");
        ConfigFetcher.store(Map.of("slurm.conf", bytes("ClusterName=c\n")), cache);
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        Path conf = ConfigFetcher.fetchOrCached(
                List.of(new ConfigFetcher.Server("127.0.0.1", closed)), cache, java.util.Optional.empty());
        assertThat(conf).isEqualTo(cache.resolve("slurm.conf"));
        assertThat(Files.readString(conf)).isEqualTo("ClusterName=c\n");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
