package dev.sluice.noded.probe.gres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.sluice.common.conf.GresConf;
import dev.sluice.common.conf.GresConfReader;
import dev.sluice.common.gres.GresSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** GRES discovery against files on disk and recorded NVML answers. */
class TestGresDiscovery {
    @TempDir
    Path dir;

    private static final Nvml NO_NVML = () -> {
        throw new Nvml.NvmlUnavailableException("NVML library not found (libnvidia-ml.so.1): test");
    };

    private static GresDiscovery onDisk(Nvml nvml) {
        return new GresDiscovery(nvml, f -> Files.exists(Path.of(f)));
    }

    private GresConf conf(String text) throws Exception {
        return GresConfReader.parse(text, "gres.conf");
    }

    @Test
    void fileLinesCountTheFilesThatExist() throws Exception {
        for (int i = 0; i < 3; i++) {
            Files.createFile(dir.resolve("gpu" + i));
        }
        GresConf conf = conf("NodeName=n1 Name=gpu Type=a100 File=" + dir + "/gpu[0-3] Cores=0-3\n"
                + "NodeName=n1 Name=lic Count=4\n");
        GresDiscovery.Result r = onDisk(NO_NVML).discover("n1", List.of(), conf, 8);
        assertThat(r.found()).hasSize(1);
        GresDiscovery.Found gpu = r.found().get(0);
        assertThat(gpu.name()).isEqualTo("gpu");
        assertThat(gpu.type()).isEqualTo("a100");
        assertThat(gpu.count()).isEqualTo(3);
        assertThat(gpu.files()).containsExactly(dir + "/gpu0", dir + "/gpu1", dir + "/gpu2");
        assertThat(gpu.cores()).isEqualTo("0-3");
        assertThat(gpu.problems()).containsExactly("gres/gpu: File=" + dir + "/gpu3 does not exist");
        assertThat(r.log()).containsExactly("gres/gpu: File=" + dir + "/gpu3 does not exist");
        // Lines for other nodes are not this node's business.
        assertThat(onDisk(NO_NVML).discover("n2", List.of(), conf, 8).found()).isEmpty();
    }

    @Test
    void characterDevicesCountLikeTheSeedsFakeGpus() throws Exception {
        Path dev = dir.resolve("nvidia0");
        Process p = new ProcessBuilder("mknod", dev.toString(), "c", "195", "0")
                .redirectErrorStream(true)
                .start();
        assumeThat(p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0)
                .as("mknod needs root")
                .isTrue();
        GresConf conf = conf("NodeName=n1 Name=gpu File=" + dev + "\n");
        assertThat(onDisk(NO_NVML)
                        .discover("n1", List.of(), conf, 8)
                        .found()
                        .get(0)
                        .count())
                .isEqualTo(1);
    }

    @Test
    void nvmlGpusAreTypedByConfiguredSubstringWithCoresLinksAndMig() throws Exception {
        Nvml recorded = NvmlRecording.replay(TestNvmlRecording.recording("a100x4-mig.txt"));
        GresConf conf = conf("AutoDetect=nvml\n");
        GresDiscovery.Result r = onDisk(recorded).discover("n1", GresSpec.parseNodeList("gpu:a100:3"), conf, 32);
        assertThat(r.log()).containsExactly("AutoDetect=nvml: 4 GPU(s) found by NVML");
        assertThat(r.found())
                .extracting(GresDiscovery.Found::type)
                .containsExactly("a100", "a100", "a100", "3g.20gb", "3g.20gb");
        assertThat(r.found())
                .extracting(GresDiscovery.Found::files)
                .containsExactly(
                        List.of("/dev/nvidia0"),
                        List.of("/dev/nvidia1"),
                        List.of("/dev/nvidia2"),
                        List.of("/dev/nvidia3"),
                        List.of("/dev/nvidia3"));
        // CPUs 0-15 and their hyperthreads 32-47 are cores 0-15 of a 32-core node.
        assertThat(r.found().get(0).cores()).isEqualTo("0-15");
        assertThat(r.found().get(2).cores()).isEqualTo("16-31");
        assertThat(r.found().get(0).links()).isEqualTo("-1,12,0,0");
        assertThat(r.found().get(2).links()).isEqualTo("0,0,-1,12");
        assertThat(r.found().get(3).links()).isEmpty();
    }

    @Test
    void aRealH200AsRecordedIsOneGpuTypedByTheConfiguredType() throws Exception {
        Nvml recorded = NvmlRecording.replay(TestNvmlRecording.recording("h200x1.txt"));
        GresDiscovery.Result r =
                onDisk(recorded).discover("g1", GresSpec.parseNodeList("gpu:h200:1"), conf("AutoDetect=nvml\n"), 16);
        assertThat(r.log()).containsExactly("AutoDetect=nvml: 1 GPU(s) found by NVML");
        assertThat(r.found()).singleElement().satisfies(gpu -> {
            assertThat(gpu.name()).isEqualTo("gpu");
            assertThat(gpu.type()).isEqualTo("h200");
            assertThat(gpu.count()).isEqualTo(1);
            assertThat(gpu.files()).containsExactly("/dev/nvidia0");
            assertThat(gpu.cores()).isEqualTo("0-15");
            assertThat(gpu.problems()).isEmpty();
        });
        // Without a configured type, slurmd's form of the name: lower case, spaces as '_'.
        assertThat(onDisk(recorded)
                        .discover("g1", List.of(), conf("AutoDetect=nvml\n"), 16)
                        .found())
                .extracting(GresDiscovery.Found::type)
                .containsExactly("nvidia_h200");
    }

    @Test
    void withoutAConfiguredTypeTheNvmlNameIsTheType() {
        assertThat(GresDiscovery.type("NVIDIA A100-SXM4-40GB", List.of())).isEqualTo("nvidia_a100-sxm4-40gb");
        assertThat(GresDiscovery.type("NVIDIA H200", List.of("h100"))).isEqualTo("nvidia_h200");
        assertThat(GresDiscovery.type("NVIDIA A100-SXM4-40GB", List.of("a100", "A100-SXM4")))
                .isEqualTo("A100-SXM4");
    }

    @Test
    void withoutNvmlOneLineThenTheFileLines() throws Exception {
        Files.createFile(dir.resolve("gpu0"));
        GresConf conf = conf("AutoDetect=nvml\nNodeName=n1 Name=gpu File=" + dir + "/gpu0\n");
        GresDiscovery.Result r = onDisk(NO_NVML).discover("n1", List.of(), conf, 8);
        assertThat(r.log())
                .containsExactly("AutoDetect=nvml: NVML library not found (libnvidia-ml.so.1): test;"
                        + " using the File= lines of gres.conf");
        assertThat(r.found().get(0).count()).isEqualTo(1);
    }

    @Test
    void autoDetectOffNeverAsksNvml() throws Exception {
        Nvml forbidden = () -> {
            throw new AssertionError("NVML asked although AutoDetect=off");
        };
        GresConf conf = conf("AutoDetect=off\nNodeName=n1 Name=gpu File=" + dir + "/none\n");
        GresDiscovery.Result r = onDisk(forbidden).discover("n1", List.of(), conf, 8);
        assertThat(r.found().get(0).count()).isZero();
    }

    @Test
    void theRealBindingFailsCleanlyWhereThereIsNoDriver() {
        assumeThat(Files.exists(Path.of("/proc/driver/nvidia/version")))
                .as("this machine has an NVIDIA driver")
                .isFalse();
        GresDiscovery.Result r = onDisk(new JnaNvml()).discover("n1", List.of(), nvmlConf(), 8);
        assertThat(r.log()).singleElement().asString().startsWith("AutoDetect=nvml: NVML library not found");
        assertThat(r.found()).isEmpty();
    }

    private static GresConf nvmlConf() {
        try {
            return GresConfReader.parse("AutoDetect=nvml\n", "gres.conf");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
