package dev.sluice.common.conf.show;

import dev.sluice.common.conf.CgroupConf;
import dev.sluice.common.conf.show.SettingsTable.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The {@code Cgroup Support Configuration:} section: cgroup.conf's settings, which Slurm
 * reports only when a cgroup plugin is configured (ProctrackType, TaskPlugin or
 * JobAcctGatherType), whether or not the file exists.
 */
final class CgroupSection {

    private CgroupSection() {}

    static boolean wanted(List<ShowConfig.Setting> settings) {
        return settings.stream()
                .filter(s -> s.name().equals("ProctrackType")
                        || s.name().equals("TaskPlugin")
                        || s.name().equals("JobAcctGatherType"))
                .anyMatch(s -> s.value().toLowerCase(Locale.ROOT).contains("cgroup"));
    }

    static ShowConfig.Section render(SettingsTable table, CgroupConf cgroup) {
        List<ShowConfig.Setting> out = new ArrayList<>();
        for (Row row : table.cgroup) {
            String value = cgroup.value(row.name())
                    .map(String::strip)
                    .filter(v -> !v.isEmpty())
                    .orElse(row.dflt());
            String printed = switch (row.format()) {
                case "str" -> value;
                case "yesno" -> ShowFormats.bool(value) ? "yes" : "no";
                // IgnoreSystemd=yes ignores a failing systemd too.
                case "onfailure" ->
                    ShowFormats.bool(value)
                                    || ShowFormats.bool(
                                            cgroup.value("IgnoreSystemd").orElse("no"))
                            ? "yes"
                            : "no";
                case "pct" -> String.format(Locale.ROOT, "%.1f%%", Double.parseDouble(value));
                case "MB" -> ShowFormats.number(value) + " MB";
                case "bytes" -> value.equals(row.dflt()) ? value : ShowFormats.number(value) + " Bytes";
                default -> throw new IllegalStateException("show-config.txt: unknown format " + row.format());
            };
            out.add(new ShowConfig.Setting(row.name(), printed));
        }
        return new ShowConfig.Section(table.cgroupTitle, out);
    }
}
