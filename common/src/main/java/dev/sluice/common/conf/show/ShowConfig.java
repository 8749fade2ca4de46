package dev.sluice.common.conf.show;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.auth.UserDb;
import dev.sluice.common.conf.CgroupConf;
import dev.sluice.common.conf.SlurmConf;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.zip.CRC32;

/**
 * What {@code scontrol show config} reports for a configuration: every setting Slurm 22.05
 * prints, in its order, with the value slurm.conf gives or Slurm's default, then the sections
 * Slurm adds. It reports configuration only: a plugin Sluice does not have prints as Slurm would
 * print it. Sluice's own settings (sluice.conf) are not Slurm's and never appear.
 *
 * <p>{@link #BOOT_TIME} and {@link #NEXT_JOB_ID} belong to the running controller, which fills
 * them in when asked; {@link #HASH_VAL} holds {@link #hash} of the configuration, which the
 * command compares with its own ({@link #compareHash}).
 */
public record ShowConfig(List<Setting> settings, List<Section> sections) {

    public static final String BOOT_TIME = "BOOT_TIME";
    public static final String NEXT_JOB_ID = "NEXT_JOB_ID";
    public static final String HASH_VAL = "HASH_VAL";

    /** One {@code Name = value} line. */
    public record Setting(String name, String value) {
        public Setting {
            requireNonNull(name, "name is null");
            requireNonNull(value, "value is null");
        }
    }

    /** A titled block printed after the settings, after a blank line. */
    public record Section(String title, List<Setting> settings) {
        public Section {
            requireNonNull(title, "title is null");
            settings = List.copyOf(settings);
        }
    }

    public ShowConfig {
        settings = List.copyOf(settings);
        sections = List.copyOf(sections);
    }

    /**
     * @param cgroup cgroup.conf beside slurm.conf ({@link CgroupConf#defaults()} without one)
     * @param users resolves SlurmUser and SlurmdUser to their uids
     */
    public static ShowConfig of(SlurmConf conf, CgroupConf cgroup, UserDb users) {
        SettingsTable table = SettingsTable.TABLE;
        ShowFormats formats = new ShowFormats(table, conf, users);
        boolean multifactor =
                formats.raw("PriorityType").orElse("").toLowerCase(Locale.ROOT).endsWith("/multifactor");
        List<Setting> settings = new ArrayList<>();
        for (SettingsTable.Row row : table.settings) {
            if (!row.multifactorOnly() || multifactor) {
                settings.addAll(formats.render(row));
            }
        }
        List<Section> sections =
                CgroupSection.wanted(settings) ? List.of(CgroupSection.render(table, cgroup)) : List.of();
        return new ShowConfig(settings, sections);
    }

    /** Whether the report has cgroup.conf's section: Slurm reads that file only for a cgroup plugin. */
    public static boolean readsCgroupConf(SlurmConf conf) {
        return !of(conf, CgroupConf.defaults(), UserDb.of(java.util.Map.of()))
                .sections()
                .isEmpty();
    }

    /** The value of a setting as printed, if it is printed. */
    public Optional<String> value(String name) {
        return settings.stream()
                .filter(s -> s.name().equals(name))
                .map(Setting::value)
                .findFirst();
    }

    /**
     * This report with one setting printing {@code value}: what the running controller knows
     * better than its files (the port it bound when started on port 0). A setting the report
     * does not print stays unprinted.
     */
    public ShowConfig with(String name, String value) {
        List<Setting> out = new ArrayList<>(settings.size());
        for (Setting s : settings) {
            out.add(s.name().equals(name) ? new Setting(name, value) : s);
        }
        return new ShowConfig(out, sections);
    }

    /**
     * A digest of what a configuration says, the same wherever the same files are read: the
     * controller's and a command's agree exactly when they read the same settings, nodes and
     * partitions. Where the files were read from does not count.
     */
    public static String hash(SlurmConf conf) {
        StringBuilder text = new StringBuilder();
        conf.values()
                .forEach((k, v) -> text.append(k.toLowerCase(Locale.ROOT))
                        .append('=')
                        .append(v)
                        .append('\n'));
        text.append(conf.controlHostEntries())
                .append(conf.prolog())
                .append(conf.epilog())
                .append('\n');
        conf.nodes().forEach(n -> describe(n, text));
        conf.partitions().forEach(p -> describe(p, text));
        conf.nodeSets().forEach(s -> describe(s, text));
        CRC32 crc = new CRC32();
        crc.update(text.toString().getBytes(StandardCharsets.UTF_8));
        return String.format("0x%08x", crc.getValue());
    }

    /** HASH_VAL as scontrol prints it, from its own digest and the controller's. */
    public static String compareHash(String ours, String controllers) {
        return ours.equals(controllers) ? "Match" : "Different Ours=" + ours + " Slurmctld=" + controllers;
    }

    /** A record's components but where it was read ({@code file}, {@code line}, {@code source}). */
    private static void describe(Record r, StringBuilder text) {
        for (RecordComponent c : r.getClass().getRecordComponents()) {
            if (c.getName().equals("file")
                    || c.getName().equals("line")
                    || c.getName().equals("source")) {
                continue;
            }
            try {
                text.append(c.getName())
                        .append('=')
                        .append(c.getAccessor().invoke(r))
                        .append(';');
            } catch (IllegalAccessException | InvocationTargetException e) {
                throw new IllegalStateException(e);
            }
        }
        text.append('\n');
    }
}
