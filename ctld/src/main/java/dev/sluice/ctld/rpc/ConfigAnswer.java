package dev.sluice.ctld.rpc;

import dev.sluice.common.conf.show.ShowConfig;
import dev.sluice.protocol.v1.ConfigEntry;
import dev.sluice.protocol.v1.ConfigSection;
import dev.sluice.protocol.v1.GetConfigResponse;
import java.util.List;

/**
 * The settings part of a GetConfig answer: the configuration's {@link ShowConfig} with the lines
 * only the running controller knows filled in. BOOT_TIME goes as a time for the command to print
 * in its own zone, as Slurm's scontrol formats it.
 */
final class ConfigAnswer {

    private ConfigAnswer() {}

    /**
     * @param bootTime when this controller started, seconds since the epoch
     * @param nextJobId the id the next submitted job gets
     */
    static void fill(GetConfigResponse.Builder out, ShowConfig report, long bootTime, int nextJobId) {
        for (ShowConfig.Setting s : report.settings()) {
            ConfigEntry.Builder e = ConfigEntry.newBuilder().setKey(s.name());
            switch (s.name()) {
                case ShowConfig.BOOT_TIME -> e.setTime(bootTime);
                case ShowConfig.NEXT_JOB_ID -> e.setValue(Integer.toString(nextJobId));
                default -> e.setValue(s.value());
            }
            out.addEntries(e);
        }
        for (ShowConfig.Section section : report.sections()) {
            out.addSections(ConfigSection.newBuilder().setTitle(section.title()).addAllEntries(entries(section)));
        }
    }

    private static List<ConfigEntry> entries(ShowConfig.Section section) {
        return section.settings().stream()
                .map(s -> ConfigEntry.newBuilder()
                        .setKey(s.name())
                        .setValue(s.value())
                        .build())
                .toList();
    }
}
