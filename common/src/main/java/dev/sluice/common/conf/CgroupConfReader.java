package dev.sluice.common.conf;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads {@code cgroup.conf}. Known keys are the union of those Slurm 22.05 accepts and those
 * current cgroup.conf(5) documents; removed ones are errors with Slurm's message, unknown ones are
 * errors with a suggestion. Percentages must be numbers from 0 to 100.
 */
public final class CgroupConfReader {

    private static final java.util.TreeMap<String, String> TYPES =
            new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);

    static {
        for (String k : ("CgroupAutomount ConstrainCores ConstrainRAMSpace ConstrainSwapSpace ConstrainKmemSpace"
                        + " MemoryLimitEnforcement ConstrainDevices IgnoreSystemd IgnoreSystemdOnFailure"
                        + " EnableControllers SignalChildrenProcesses CgroupJobIdPaths")
                .split(" ")) {
            TYPES.put(k, "bool");
        }
        for (String k : ("AllowedRAMSpace MaxRAMPercent MaxKmemPercent AllowedSwapSpace MaxSwapPercent"
                        + " MemoryLimitThreshold")
                .split(" ")) {
            TYPES.put(k, "percent");
        }
        // AllowedKmemSpace is bytes (cgroup.conf(5)), not a percentage like its neighbours.
        for (String k : "MinRAMSpace MinKmemSpace AllowedKmemSpace MemorySwappiness SystemdTimeout".split(" ")) {
            TYPES.put(k, "number");
        }
        for (String k :
                "CgroupMountpoint AllowedDevicesFile CgroupPlugin EnableExtraControllers CgroupSlice".split(" ")) {
            TYPES.put(k, "string");
        }
    }

    private static final Map<String, String> REMOVED = Map.of(
            "cgroupreleaseagentdir",
            "Support for CgroupReleaseAgentDir option has been removed.",
            "taskaffinity",
            "The TaskAffinity option has been removed from cgroup.conf; use TaskPlugin=task/affinity,"
                    + "task/cgroup in slurm.conf instead (Slurm 22.05 rejects it as an unrecognized key).");

    private CgroupConfReader() {}

    public static CgroupConf read(Path path) throws ConfigException {
        requireNonNull(path, "path is null");
        return parse(SlurmConfReader.readText(path), path.toString());
    }

    public static CgroupConf parse(String text, String fileName) throws ConfigException {
        Map<String, String> values = new HashMap<>();
        for (LogicalLine ll : ConfLexer.logicalLines(text, fileName)) {
            List<ConfEntry> pairs = ConfLexer.pairs(ll);
            if (pairs.size() > 1) {
                ConfEntry extra = pairs.get(1);
                throw extra.error(
                        "Parse error: \"" + extra.key() + "=" + extra.value() + "\" (only one Key=Value per line)");
            }
            for (ConfEntry e : pairs) {
                String removed = REMOVED.get(e.key().toLowerCase(java.util.Locale.ROOT));
                if (removed != null) {
                    throw e.error(removed);
                }
                String type = TYPES.get(e.key());
                if (type == null) {
                    String hint = SlurmConfKeys.suggest(e.key(), TYPES.keySet())
                            .map(s -> " (did you mean \"" + s + "\"?)")
                            .orElse("");
                    throw e.error("unknown key \"" + e.key() + "\"" + hint);
                }
                String canonical = TYPES.ceilingKey(e.key());
                check(e, type);
                values.put(canonical, e.value());
            }
        }
        return new CgroupConf(values);
    }

    private static void check(ConfEntry e, String type) throws ConfigException {
        switch (type) {
            case "bool" -> Values.bool(e);
            case "number" -> Values.unsigned(e, Long.MAX_VALUE);
            case "percent" -> {
                double d;
                try {
                    d = Double.parseDouble(e.value().strip());
                } catch (NumberFormatException ex) {
                    throw e.error(e.key() + " value \"" + e.value() + "\" is not a valid number");
                }
                if (!(d >= 0 && d <= 100)
                        && !e.key().equalsIgnoreCase("AllowedRAMSpace")
                        && !e.key().equalsIgnoreCase("AllowedSwapSpace")) {
                    throw e.error(e.key() + " value \"" + e.value() + "\" must be between 0 and 100");
                }
                if (d < 0 || Double.isNaN(d) || Double.isInfinite(d)) {
                    throw e.error(e.key() + " value \"" + e.value() + "\" must not be negative");
                }
            }
            default -> {}
        }
    }
}
