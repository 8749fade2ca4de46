package dev.sluice.cli.command.scontrol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.testing.Answers;
import dev.sluice.cli.testing.FakeController;
import dev.sluice.cli.testing.TestingInvocations;
import dev.sluice.cli.testing.TestingInvocations.Output;
import dev.sluice.common.auth.UserDb;
import dev.sluice.common.conf.CgroupConf;
import dev.sluice.common.conf.IncludeResolver;
import dev.sluice.common.conf.SlurmConf;
import dev.sluice.common.conf.SlurmConfReader;
import dev.sluice.common.conf.show.ShowConfig;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.ConfigEntry;
import dev.sluice.protocol.v1.ConfigSection;
import dev.sluice.protocol.v1.GetConfigResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scontrol show config} for the cluster of the differential suite ({@code
 * compat/conf/slurm.conf}, {@code @BASE@} = {@code /tmp/real-slurm}) prints what real Slurm
 * printed for it, line by line.
 *
 * <p>{@code golden/show-config-real-slurm-22.05.txt} was recorded from real Slurm 22.05.8 with
 * {@code scontrol show config}, against a slurmctld running that very slurm.conf (2026-12-05,
 * with the AuthAltTypes=auth/jwt of the REST scenarios). Written as the suite's cluster: its
 * directory as {@code /tmp/real-slurm}, its ports as 6817 and 6819; and three values as this
 * test's controller reports them: the first line's time, BOOT_TIME and NEXT_JOB_ID. The
 * controller's answer is built as Sluice's controller builds it (ctld's ConfigAnswer):
 * {@link ShowConfig} of the same slurm.conf, with BOOT_TIME and NEXT_JOB_ID filled in.
 */
class TestShowConfigAgainstSlurm {

    static final String BASE = "/tmp/real-slurm";
    static final String RECORDED_CONF = BASE + "/etc/slurm.conf";
    static final Instant NOW = Instant.parse("2026-11-29T08:47:04Z");
    static final Instant BOOT = Instant.parse("2026-11-29T08:00:00Z");

    /**
     * Lines Slurm derives from its running state, which Sluice cannot match, each with why.
     * Everything else must be equal.
     */
    static final Map<String, String> NOT_COMPARED = Map.of(
            "NEXT_JOB_ID",
            "the recorded cluster's next job id, which counts every job the differential suite had"
                    + " submitted to it by then");

    @TempDir
    Path dir;

    @Test
    void printsWhatSlurm2205PrintedForTheSameConfiguration() throws Exception {
        String text = Files.readString(Path.of("../compat/conf/slurm.conf")).replace("@BASE@", BASE);
        SlurmConf recorded = SlurmConfReader.parse(text, RECORDED_CONF, IncludeResolver.none());
        ShowConfig report = ShowConfig.of(recorded, CgroupConf.defaults(), UserDb.system());

        // A controller running the file the command reads answers with that file's digest.
        AtomicReference<String> digest = new AtomicReference<>("");
        try (FakeController controller = new FakeController(req -> switch (req.getBodyCase()) {
            case GET_CONFIG ->
                ClientResponse.newBuilder()
                        .setGetConfig(answer(report, BOOT.getEpochSecond(), 5000000, digest.get()))
                        .build();
            case PING -> Answers.ping();
            default -> throw new AssertionError(req.getBodyCase());
        })) {
            // The command reads the same file, but reaches this test's controller and none of
            // the recorded cluster's sockets.
            Path local = dir.resolve("slurm.conf");
            Files.writeString(
                    local,
                    text.replace("SlurmctldPort=6817", "SlurmctldPort=" + controller.port())
                            .replace("StateSaveLocation=" + BASE + "/state", "StateSaveLocation=" + dir));
            digest.set(ShowConfig.hash(SlurmConfReader.read(local)));
            Output out = TestingInvocations.run(
                    new ScontrolCommand(),
                    TestingInvocations.invocation(
                            NOW, dir, Map.of("SLURM_CONF", local.toString(), "HOME", "/root"), "", "show", "config"));

            assertThat(out.err()).isEmpty();
            assertThat(out.exitCode()).isZero();
            List<String> expected = TestingInvocations.golden("show-config-real-slurm-22.05.txt")
                    .lines()
                    .toList();
            List<String> actual = out.out().lines().toList();
            List<String> differences = new ArrayList<>();
            int compared = 0;
            for (int i = 0; i < Math.max(expected.size(), actual.size()); i++) {
                String want = i < expected.size() ? expected.get(i) : "(no line)";
                String got = i < actual.size() ? actual.get(i) : "(no line)";
                if (NOT_COMPARED.containsKey(key(want)) && key(want).equals(key(got))) {
                    continue;
                }
                compared++;
                if (!want.equals(got)) {
                    differences.add("line " + (i + 1) + ": Slurm: " + want + "\n         Sluice: " + got);
                }
            }
            assertThat(differences).as("lines that differ from real Slurm's").isEmpty();
            assertThat(actual).hasSize(196);
            assertThat(compared).isEqualTo(196 - NOT_COMPARED.size());
        }
    }

    private static String key(String line) {
        int eq = line.indexOf(" = ");
        return eq < 0 ? line : line.substring(0, eq).strip();
    }

    /** What Sluice's controller sends for a report (as ctld's ConfigAnswer), with its digest. */
    static GetConfigResponse answer(ShowConfig report, long bootTime, int nextJobId, String digest) {
        GetConfigResponse.Builder out = GetConfigResponse.newBuilder();
        for (ShowConfig.Setting s : report.settings()) {
            ConfigEntry.Builder e = ConfigEntry.newBuilder().setKey(s.name());
            switch (s.name()) {
                case ShowConfig.BOOT_TIME -> e.setTime(bootTime);
                case ShowConfig.NEXT_JOB_ID -> e.setValue(Integer.toString(nextJobId));
                case ShowConfig.HASH_VAL -> e.setValue(digest);
                default -> e.setValue(s.value());
            }
            out.addEntries(e);
        }
        for (ShowConfig.Section section : report.sections()) {
            ConfigSection.Builder b = ConfigSection.newBuilder().setTitle(section.title());
            section.settings().forEach(s -> b.addEntries(entry(s.name(), s.value())));
            out.addSections(b);
        }
        return out.build();
    }

    private static ConfigEntry entry(String key, String value) {
        return ConfigEntry.newBuilder().setKey(key).setValue(value).build();
    }
}
