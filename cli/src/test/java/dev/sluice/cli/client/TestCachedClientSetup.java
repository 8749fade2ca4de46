package dev.sluice.cli.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.common.conf.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** sluice-agent parses slurm.conf once, and again as soon as any file it came from changes. */
class TestCachedClientSetup {
    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

    @TempDir
    Path dir;

    private Path conf;
    private CachedClientSetup setup;

    @BeforeEach
    void setUp() throws IOException {
        conf = dir.resolve("slurm.conf");
        setup = new CachedClientSetup(
                new ConnectionPool(1, Duration.ofMinutes(1), Clock.systemUTC()), Clock.fixed(NOW, ZoneOffset.UTC));
        write(conf, confText("alpha", ""), 3600);
    }

    @AfterEach
    void tearDown() {
        setup.close();
    }

    private static String confText(String cluster, String extra) {
        return """
                ClusterName=%s
                SlurmctldHost=ctl(127.0.0.1)
                NodeName=n[1-2] CPUs=4 State=UNKNOWN
                PartitionName=debug Nodes=n[1-2] Default=YES State=UP
                %s
                """.formatted(cluster, extra);
    }

    /** Writes {@code text} as last modified {@code ageSeconds} before NOW. */
    private static void write(Path file, String text, long ageSeconds) throws IOException {
        Files.writeString(file, text);
        Files.setLastModifiedTime(file, FileTime.from(NOW.minusSeconds(ageSeconds)));
    }

    @Test
    void unchangedFilesAreReadOnce() throws Exception {
        ClusterAccess first = setup.access(conf);
        assertThat(setup.access(conf)).isSameAs(first);
        assertThat(first.conf().clusterName()).isEqualTo("alpha");
        assertThat(first.signer()).isEmpty();
    }

    @Test
    void anEditedSlurmConfIsReadAgain() throws Exception {
        setup.access(conf);
        write(conf, confText("beta", ""), 1800);
        assertThat(setup.access(conf).conf().clusterName()).isEqualTo("beta");
    }

    @Test
    void anEditedIncludedFileIsReadAgain() throws Exception {
        write(dir.resolve("extra.conf"), "ClusterName=gamma\n", 3600);
        write(conf, confText("alpha", "Include extra.conf"), 3600);
        ClusterAccess first = setup.access(conf);
        assertThat(first.conf().clusterName()).isEqualTo("gamma");
        write(dir.resolve("extra.conf"), "ClusterName=delta\n", 1800);
        assertThat(setup.access(conf).conf().clusterName()).isEqualTo("delta");
    }

    @Test
    void aClusterKeyThatAppearsIsUsedOnTheNextCall() throws Exception {
        assertThat(setup.access(conf).signer()).isEmpty();
        Path key = dir.resolve("slurm.key");
        write(key, "k".repeat(64), 3600);
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
        assertThat(setup.access(conf).signer()).isPresent();
    }

    @Test
    void aFileModifiedJustNowIsNotTrustedToStaySame() throws Exception {
        // Within the racy window an edit may keep the same time stamp: read each time.
        write(conf, confText("alpha", ""), 1);
        ClusterAccess first = setup.access(conf);
        assertThat(setup.access(conf)).isNotSameAs(first);
    }

    @Test
    void aBrokenConfigurationIsReportedEachTimeAndItsFixSeen() throws Exception {
        setup.access(conf);
        write(conf, "NoSuchKey=1\n", 1800);
        assertThatThrownBy(() -> setup.access(conf)).isInstanceOf(ConfigException.class);
        assertThatThrownBy(() -> setup.access(conf)).isInstanceOf(ConfigException.class);
        write(conf, confText("epsilon", ""), 900);
        assertThat(setup.access(conf).conf().clusterName()).isEqualTo("epsilon");
    }
}
