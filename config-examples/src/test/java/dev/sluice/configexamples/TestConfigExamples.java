package dev.sluice.configexamples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.conf.ConfigCheck;
import dev.sluice.common.conf.GresConf;
import dev.sluice.common.conf.GresConfReader;
import dev.sluice.common.conf.NodeConf;
import dev.sluice.common.conf.PartitionConf;
import dev.sluice.common.conf.SlurmConf;
import dev.sluice.common.conf.SlurmConfReader;
import dev.sluice.common.gres.GresSpec;
import dev.sluice.common.time.TimeLimit;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Loads every example folder in this module and checks what each one promises in its comments. */
class TestConfigExamples {

    static Path moduleDir() {
        return Path.of("").toAbsolutePath();
    }

    static Stream<Path> examples() throws Exception {
        try (Stream<Path> dirs = Files.list(moduleDir())) {
            return dirs.filter(d -> Files.isRegularFile(d.resolve("slurm.conf"))).sorted().toList().stream();
        }
    }

    @Test
    void theExpectedExamplesExist() throws Exception {
        assertThat(examples().map(p -> p.getFileName().toString()))
                .contains("fake-gpu-lab", "gres-guide", "gres-shard", "minimal", "local-dev", "site");
    }

    @ParameterizedTest
    @MethodSource("examples")
    void passesTheConfigCheckWithoutWarnings(Path dir) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = ConfigCheck.run(dir.resolve("slurm.conf"), new PrintStream(out), new PrintStream(err));
        assertThat(rc).as(err.toString()).isZero();
        assertThat(out.toString()).doesNotContain("Warnings (");
    }

    /** Every GRES a node declares in slurm.conf is backed by the same count in gres.conf. */
    @ParameterizedTest
    @MethodSource("examples")
    void gresConfMatchesTheNodeLines(Path dir) throws Exception {
        if (!Files.isRegularFile(dir.resolve("gres.conf"))) {
            return;
        }
        SlurmConf conf = SlurmConfReader.read(dir.resolve("slurm.conf"));
        GresConf gres = GresConfReader.read(dir.resolve("gres.conf"));
        for (NodeConf n : conf.nodes()) {
            for (String name :
                    n.gres().specs().stream().map(GresSpec::name).distinct().toList()) {
                assertThat(gres.countFor(n.name(), name))
                        .as(n.name() + " " + name)
                        .isEqualTo(n.gres().count(name));
            }
        }
    }

    @Test
    void fakeGpuLabIsTheSeedsCluster() throws Exception {
        Path dir = moduleDir().resolve("fake-gpu-lab");
        SlurmConf conf = SlurmConfReader.read(dir.resolve("slurm.conf"));
        assertThat(conf.clusterName()).isEqualTo("slinky-lab");
        assertThat(conf.gresTypes()).containsExactly("gpu");
        assertThat(conf.nodes()).extracting(NodeConf::name).containsExactly("slinky-lab-worker", "slinky-lab-worker2");
        assertThat(conf.nodes()).allSatisfy(n -> {
            assertThat(n.gres().count("gpu")).isEqualTo(3);
            assertThat(n.hardware().cpus()).isEqualTo(8);
            assertThat(n.hardware().threadsPerCore()).isEqualTo(2);
        });
        assertThat(conf.partitions()).extracting(PartitionConf::name).containsExactly("gpu", "all", "slurm-bridge");
        assertThat(conf.defaultPartition().orElseThrow().name()).isEqualTo("all");
        assertThat(conf.partition("slurm-bridge").orElseThrow().limits().maxTimeMinutes())
                .isEqualTo(TimeLimit.INFINITE);
        GresConf gres = GresConfReader.read(dir.resolve("gres.conf"));
        assertThat(gres.autoDetectFor("slinky-lab-worker")).isEqualTo("off");
        assertThat(gres.forNode("slinky-lab-worker2").getFirst().files())
                .containsExactly("/fakegpu/gpu0", "/fakegpu/gpu1", "/fakegpu/gpu2");
    }

    @Test
    void gresGuideHasTypedGpusMpsAndACountOnlyResource() throws Exception {
        Path dir = moduleDir().resolve("gres-guide");
        SlurmConf conf = SlurmConfReader.read(dir.resolve("slurm.conf"));
        NodeConf tux = conf.node("tux3").orElseThrow();
        assertThat(tux.gres().specs())
                .extracting(GresSpec::toString)
                .containsExactly("gpu:tesla:2", "gpu:kepler:2", "mps:400", "bandwidth:lustre:no_consume:4G");
        GresConf gres = GresConfReader.read(dir.resolve("gres.conf"));
        assertThat(gres.forNode("tux3").stream()
                        .filter(l -> l.options().hasFlag("CountOnly"))
                        .toList())
                .hasSize(1);
    }

    @Test
    void siteUsesFeatureNodeSetsWeightsAndIncludes() throws Exception {
        SlurmConf conf = SlurmConfReader.read(moduleDir().resolve("site/slurm.conf"));
        assertThat(conf.controlHosts()).containsExactly("ctl1", "ctl2");
        assertThat(conf.nodes()).hasSize(152);
        assertThat(conf.node("c001").orElseThrow().source().file()).endsWith("conf.d/nodes.conf");
        assertThat(conf.partition("gpu").orElseThrow().nodeNames()).hasSize(20);
        assertThat(conf.partition("bigmem").orElseThrow().nodeNames()).containsExactly("m01", "m02", "m03", "m04");
        assertThat(conf.node("g16").orElseThrow().status().state()).isEqualTo("DRAIN");
        List<Long> weights =
                conf.nodes().stream().map(NodeConf::weight).distinct().toList();
        assertThat(weights).containsExactly(10L, 50L, 100L, 200L);
        assertThat(conf.ignoredKeys())
                .extracting(k -> k.key())
                .containsExactly("JobCompType", "MailProg", "HealthCheckProgram", "HealthCheckInterval");
    }
}
