package dev.sluice.noded.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.conf.IncludeResolver;
import dev.sluice.common.conf.NodeConf;
import dev.sluice.common.conf.SlurmConfReader;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The address a node daemon registers: one someone chose, or none and the controller decides. */
class TestRegisteredAddress {
    private static NodeSetup.Options options(String addr, boolean dynamic, String conf) {
        return new NodeSetup.Options("dyn1", true, null, addr, null, dynamic, conf);
    }

    private static String addr(NodeSetup.Options o, Optional<NodeConf> configured) {
        return NodeSetup.registeredAddr(o, configured, NodedMain.dynamicPairs(o.dynamicConf()));
    }

    private static NodeConf configured(String line) throws Exception {
        return SlurmConfReader.parse(
                        "ClusterName=c\nSlurmctldHost=h\n" + line + "\n", "slurm.conf", IncludeResolver.none())
                .nodes()
                .get(0);
    }

    @Test
    void aDynamicNodeWithoutAnAddressClaimsNoneNotItsName() {
        assertThat(addr(options(null, true, "CPUs=2 Feature=a100"), Optional.empty()))
                .isEmpty();
    }

    @Test
    void aDynamicNodesConfNodeAddrIsItsAddress() {
        assertThat(addr(options(null, true, "CPUs=2 nodeaddr=10.1.2.3"), Optional.empty()))
                .isEqualTo("10.1.2.3");
    }

    @Test
    void theCommandLineWinsOverEverything() throws Exception {
        assertThat(addr(options("192.168.0.9", true, "NodeAddr=10.1.2.3"), Optional.empty()))
                .isEqualTo("192.168.0.9");
        assertThat(addr(options("192.168.0.9", false, ""), Optional.of(configured("NodeName=dyn1 NodeAddr=10.9.9.9"))))
                .isEqualTo("192.168.0.9");
    }

    @Test
    void aConfiguredNodeRegistersItsSlurmConfAddress() throws Exception {
        assertThat(addr(options(null, false, ""), Optional.of(configured("NodeName=dyn1 NodeAddr=10.9.9.9"))))
                .isEqualTo("10.9.9.9");
        // slurm.conf's default NodeAddr is the name, which slurm.conf vouches for.
        assertThat(addr(options(null, false, ""), Optional.of(configured("NodeName=dyn1 CPUs=1"))))
                .isEqualTo("dyn1");
    }

    @Test
    void confPairsAreCaseBlindKeysWithTheirValues() {
        assertThat(NodedMain.dynamicPairs(" NodeAddr=10.1.2.3  Feature=a,b  junk "))
                .isEqualTo(Map.of("nodeaddr", "10.1.2.3", "feature", "a,b"));
    }
}
