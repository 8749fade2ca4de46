package dev.sluice.common.conf.show;

import dev.sluice.common.auth.UserDb;
import dev.sluice.common.conf.ControlHost;
import dev.sluice.common.conf.SlurmConf;
import dev.sluice.common.conf.show.SettingsTable.Row;
import dev.sluice.common.time.TimeLimit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The formats of {@code show-config.txt}: how one setting of slurm.conf prints. Most take the
 * value as written or the table's default; a few derive it from other settings the way
 * slurmctld does (the accounting defaults follow AccountingStorageType, MaxNodeCount counts the
 * nodes).
 */
final class ShowFormats {

    /** slurmdbd's defaults where accounting goes through it (slurm.conf(5): SLURMDBD_PORT, MaxDBDMsgs). */
    static final int SLURMDBD_PORT = 6819;

    static final long MIN_DBD_MSGS = 10000;

    static final String SLURMDBD = "accounting_storage/slurmdbd";

    private static final List<String> LEVELS =
            List.of("quiet", "fatal", "error", "info", "verbose", "debug", "debug2", "debug3", "debug4", "debug5");

    private final SettingsTable table;
    private final SlurmConf conf;
    private final UserDb users;

    ShowFormats(SettingsTable table, SlurmConf conf, UserDb users) {
        this.table = table;
        this.conf = conf;
        this.users = users;
    }

    /** The lines a row prints: usually one, several for SlurmctldHost, none for an absent one. */
    List<ShowConfig.Setting> render(Row row) {
        Optional<String> set = raw(row.name());
        String name = row.name();
        String value = set.orElse(row.dflt());
        switch (row.format()) {
            case "mem" -> {
                return List.of(memory(name));
            }
            case "selectparams" -> {
                return selectTypeParameters(set);
            }
            case "ctldhosts" -> {
                return controllers();
            }
            default -> {}
        }
        String out = switch (row.format()) {
            case "str", "running" -> value;
            case "fixed" -> row.dflt();
            case "lower" -> value.toLowerCase(Locale.ROOT);
            case "upper" -> value.toUpperCase(Locale.ROOT);
            case "num" -> number(value);
            case "bool" -> bool(value) ? "Yes" : "No";
            case "sec", "min", "usec", "percent", "nodes/min" -> unit(value, row);
            case "time" -> time(value);
            case "level" -> set.map(ShowFormats::level).orElse(row.dflt());
            case "user" -> user(value);
            case "flags" -> WordList.print(table, name, value, row.dflt());
            case "rlimits" -> raw("PropagateResourceLimitsExcept").isPresent() ? "(null)" : value;
            case "trackwckey" ->
                bool(value) || words("AccountingStorageEnforce").contains("wckeys") ? "Yes" : "No";
            case "tres" -> tres(row.dflt(), set);
            case "dbdport" -> set.orElse(slurmdbd() ? Integer.toString(SLURMDBD_PORT) : row.dflt());
            // Slurm names no storage user when slurmdbd holds the credentials.
            case "dbduser" -> set.orElse(slurmdbd() ? "N/A" : row.dflt());
            case "dbdmsgs" -> set.map(ShowFormats::number).orElseGet(() -> dbdMessages(row.dflt()));
            case "nodecount" ->
                set.map(ShowFormats::number)
                        .orElse(Integer.toString(conf.nodes().size()));
            case "conffile" -> conf.file();
            case "hash" -> ShowConfig.hash(conf);
            default -> throw new IllegalStateException("show-config.txt: unknown format " + row.format());
        };
        return List.of(new ShowConfig.Setting(name, out));
    }

    /** The value as written, when it is written and not blank. */
    Optional<String> raw(String key) {
        return conf.value(key).map(String::strip).filter(v -> !v.isEmpty());
    }

    /** The words a flags setting prints, lower-cased. */
    Set<String> words(String key) {
        Set<String> out = new TreeSet<>();
        for (String w : WordList.print(table, key, raw(key).orElse(""), "").split(",")) {
            out.add(SettingsTable.lower(w));
        }
        out.remove("");
        return out;
    }

    private boolean slurmdbd() {
        return raw("AccountingStorageType").orElse("").equalsIgnoreCase(SLURMDBD);
    }

    static String number(String value) {
        String v = value.strip();
        if (!v.isEmpty() && v.length() < 19 && v.chars().allMatch(Character::isDigit)) {
            return Long.toString(Long.parseLong(v));
        }
        return v.toUpperCase(Locale.ROOT);
    }

    static boolean bool(String value) {
        return switch (SettingsTable.lower(value)) {
            case "yes", "true", "up", "1" -> true;
            default -> false;
        };
    }

    static boolean unlimited(String value) {
        String v = value.strip().toUpperCase(Locale.ROOT);
        return v.equals("UNLIMITED") || v.equals("INFINITE") || v.equals("NONE") || v.equals("-1");
    }

    private static String unit(String value, Row row) {
        if (unlimited(value)) {
            return row.dflt().chars().allMatch(Character::isLetter) ? row.dflt() : "UNLIMITED";
        }
        return number(value) + " " + row.format();
    }

    /** Slurm's time text, seconds always shown: {@code 00:05:00}, {@code 7-00:00:00}. */
    static String time(String value) {
        long secs;
        try {
            secs = TimeLimit.parseSeconds(value);
        } catch (IllegalArgumentException e) {
            return value;
        }
        if (secs == TimeLimit.INFINITE) {
            return "UNLIMITED";
        }
        String hms = String.format("%02d:%02d:%02d", (secs / 3600) % 24, (secs / 60) % 60, secs % 60);
        return secs >= 86400 ? secs / 86400 + "-" + hms : hms;
    }

    /** Log levels print by name; slurm.conf may give their numbers. */
    static String level(String value) {
        String v = SettingsTable.lower(value);
        if (v.length() == 1 && Character.isDigit(v.charAt(0))) {
            return LEVELS.get(v.charAt(0) - '0');
        }
        return v;
    }

    /** {@code root(0)}: the user with their uid, as this host's user database knows them. */
    private String user(String value) {
        Optional<UserDb.Account> account =
                value.chars().allMatch(Character::isDigit) ? users.byUid(Long.parseLong(value)) : users.byName(value);
        return account.map(a -> a.name() + "(" + a.uid() + ")").orElse(value);
    }

    /** The TRES Slurm always accounts, then the configured ones it does not already have. */
    private static String tres(String always, Optional<String> configured) {
        List<String> out = new ArrayList<>(List.of(always.split(",")));
        Set<String> seen = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        seen.addAll(out);
        for (String t : configured.orElse("").split(",")) {
            if (!t.isBlank() && seen.add(t.strip())) {
                out.add(t.strip());
            }
        }
        return String.join(",", out);
    }

    /** slurm.conf(5): the larger of 10000 and MaxJobCount * 2 + node count * 4; none without slurmdbd. */
    private String dbdMessages(String none) {
        if (!slurmdbd()) {
            return none;
        }
        return Long.toString(
                Math.max(MIN_DBD_MSGS, conf.maxJobCount() * 2 + conf.nodes().size() * 4L));
    }

    /**
     * DefMemPerNode/DefMemPerCPU and MaxMemPerNode/MaxMemPerCPU share one line: Slurm keeps one
     * value per pair, so the per-CPU name prints when that is what was set. 0 means no limit.
     */
    private ShowConfig.Setting memory(String perNode) {
        String perCpu = perNode.replace("PerNode", "PerCPU");
        Optional<String> cpu =
                raw(perCpu).filter(v -> !unlimited(v) && !number(v).equals("0"));
        if (cpu.isPresent()) {
            return new ShowConfig.Setting(perCpu, number(cpu.get()));
        }
        String node = raw(perNode).orElse("0");
        return new ShowConfig.Setting(
                perNode, unlimited(node) || number(node).equals("0") ? "UNLIMITED" : number(node));
    }

    /** Printed when set, else only for the consumable-resource plugins, whose default is CR_Core_Memory. */
    private List<ShowConfig.Setting> selectTypeParameters(Optional<String> set) {
        String name = "SelectTypeParameters";
        if (set.isPresent()) {
            return List.of(new ShowConfig.Setting(name, WordList.print(table, name, set.get(), "")));
        }
        String select = raw("SelectType").orElse("select/linear").toLowerCase(Locale.ROOT);
        if (select.endsWith("/cons_res") || select.endsWith("/cons_tres")) {
            return List.of(new ShowConfig.Setting(name, "CR_CORE_MEMORY"));
        }
        return List.of();
    }

    /** {@code SlurmctldHost[i]}, {@code name(addr)} when an address was given. */
    private List<ShowConfig.Setting> controllers() {
        List<ShowConfig.Setting> out = new ArrayList<>();
        List<ControlHost> hosts = conf.controlHostEntries();
        for (int i = 0; i < hosts.size(); i++) {
            ControlHost h = hosts.get(i);
            String value = h.addr().equals(h.name()) ? h.name() : h.name() + "(" + h.addr() + ")";
            out.add(new ShowConfig.Setting("SlurmctldHost[" + i + "]", value));
        }
        return out;
    }
}
