package dev.sluice.ctld.rpc;

import static dev.sluice.ctld.rpc.SecuredController.ALICE;
import static dev.sluice.ctld.rpc.SecuredController.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.auth.UserDb;
import dev.sluice.common.conf.CgroupConf;
import dev.sluice.common.conf.SlurmConfReader;
import dev.sluice.common.conf.show.ShowConfig;
import dev.sluice.protocol.v1.ConfigEntry;
import dev.sluice.protocol.v1.GetConfigRequest;
import dev.sluice.protocol.v1.GetConfigResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GetConfig answers {@code scontrol show config} with the configuration's report (every Slurm
 * setting, nothing of Sluice's own) and the lines only the running controller knows.
 */
class TestShowConfigAnswer {
    @TempDir
    Path dir;

    @Test
    void reportsTheConfigurationAndTheRunningController() throws Exception {
        long before = Instant.now().getEpochSecond();
        try (SecuredController ctld =
                new SecuredController(dir, "MinJobAge=10\nSchedulerTimeSlice=60\nFirstJobId=100")) {
            ctld.submitAs(ALICE, "j");
            GetConfigResponse answer = ctld.call(
                            request()
                                    .setGetConfig(GetConfigRequest.getDefaultInstance())
                                    .build(),
                            ALICE)
                    .getGetConfig();
            Map<String, ConfigEntry> byKey =
                    answer.getEntriesList().stream().collect(Collectors.toMap(ConfigEntry::getKey, e -> e));

            assertThat(byKey.get("MinJobAge").getValue()).isEqualTo("10 sec");
            assertThat(byKey.get("SchedulerTimeSlice").getValue()).isEqualTo("60 sec");
            assertThat(byKey.get("NEXT_JOB_ID").getValue()).isEqualTo("101");
            assertThat(byKey.get("BOOT_TIME").getValue()).isEmpty();
            assertThat(byKey.get("BOOT_TIME").getTime())
                    .isBetween(before, Instant.now().getEpochSecond());
            Path conf = dir.resolve("slurm.conf");
            assertThat(byKey.get("SLURM_CONF").getValue()).isEqualTo(conf.toString());
            assertThat(byKey.get("HASH_VAL").getValue()).isEqualTo(ShowConfig.hash(SlurmConfReader.read(conf)));

            // Exactly Slurm's settings, in its order: the report of the same file.
            ShowConfig report = ShowConfig.of(SlurmConfReader.read(conf), CgroupConf.defaults(), UserDb.system());
            assertThat(answer.getEntriesList().stream().map(ConfigEntry::getKey))
                    .containsExactlyElementsOf(report.settings().stream()
                            .map(ShowConfig.Setting::name)
                            .toList());
            // proctrack/cgroup, Slurm's default ProctrackType, brings cgroup.conf's section.
            assertThat(answer.getSectionsList()).hasSize(1);
            assertThat(answer.getSections(0).getTitle()).isEqualTo("Cgroup Support Configuration:");
            assertThat(answer.getSections(0).getEntriesCount()).isEqualTo(19);
        }
    }

    @Test
    void aControllerStartedOnPortZeroReportsThePortItBound() throws Exception {
        // The files name a range; the controller, told to take what the kernel gives, bound one.
        try (SecuredController ctld = new SecuredController(dir, "SlurmctldPort=6817-6818")) {
            GetConfigResponse answer = ctld.call(
                            request()
                                    .setGetConfig(GetConfigRequest.getDefaultInstance())
                                    .build(),
                            ALICE)
                    .getGetConfig();
            Map<String, ConfigEntry> byKey =
                    answer.getEntriesList().stream().collect(Collectors.toMap(ConfigEntry::getKey, e -> e));

            assertThat(ctld.server.commandPort()).isNotIn(6817, 6818);
            assertThat(byKey.get("SlurmctldPort").getValue()).isEqualTo(Integer.toString(ctld.server.commandPort()));
        }
    }
}
