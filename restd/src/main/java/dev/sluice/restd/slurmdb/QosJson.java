package dev.sluice.restd.slurmdb;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.common.slurm.QosFlags;
import dev.sluice.protocol.v1.QosEntry;
import dev.sluice.restd.slurm.Numbers;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A QOS as sacctmgr shows it, in the data parser's {@code qos} shape. Only what sluice-dbd keeps
 * is given: no id (the database numbers QOS only for jobs), no usage threshold, no accrue or
 * per-account limits, no TRES-minutes. A limit it keeps but that is unset is Slurm's INFINITE.
 */
public final class QosJson {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    /** sacctmgr's flag names (str_2_qos_flags, case ignored) to the data parser's. */
    private static final Map<String, String> FLAGS = Map.ofEntries(
            Map.entry("denyonlimit", "DENY_LIMIT"),
            Map.entry("enforceusagethreshold", "ENFORCE_USAGE_THRESHOLD"),
            Map.entry("nodecay", "NO_DECAY"),
            Map.entry("noreserve", "NO_RESERVE"),
            Map.entry("overpartqos", "OVERRIDE_PARTITION_QOS"),
            Map.entry("partitionmaxnodes", "PARTITION_MAXIMUM_NODE"),
            Map.entry("partitionminnodes", "PARTITION_MINIMUM_NODE"),
            Map.entry("partitiontimelimit", "PARTITION_TIME_LIMIT"),
            Map.entry("requiresreservation", "REQUIRED_RESERVATION"),
            Map.entry("usagefactorsafe", "USAGE_FACTOR_SAFE"),
            Map.entry("relative", "RELATIVE"));

    private QosJson() {}

    /**
     * The data parser's flag names as sacctmgr keeps and prints them, in its order; empty when
     * one names no flag.
     */
    public static java.util.Optional<List<String>> sacctmgrFlags(List<String> parserNames) {
        java.util.Set<String> wanted = new java.util.HashSet<>();
        for (String n : parserNames) {
            String key = FLAGS.entrySet().stream()
                    .filter(e -> e.getValue().equals(n))
                    .map(Map.Entry::getKey)
                    .findFirst()
                    .orElse(null);
            if (key == null) {
                return java.util.Optional.empty();
            }
            wanted.add(key);
        }
        return java.util.Optional.of(QosFlags.NAMES.stream()
                .filter(f -> wanted.contains(f.toLowerCase(Locale.ROOT)))
                .toList());
    }

    static ArrayNode list(List<QosEntry> qos, Map<String, Integer> tresIds) {
        ArrayNode out = F.arrayNode();
        qos.forEach(q -> out.add(of(q, tresIds)));
        return out;
    }

    static ObjectNode of(QosEntry q, Map<String, Integer> tresIds) {
        ObjectNode o = F.objectNode();
        o.put("name", q.getName());
        o.put("description", q.getDescription());
        ArrayNode flags = o.putArray("flags");
        flagNames(q.getFlagsList()).forEach(flags::add);
        o.set("priority", Numbers.set(Integer.toUnsignedLong(q.getPriority())));
        o.putObject("usage_factor").put("set", true).put("infinite", false).put("number", q.getUsageFactor());
        ObjectNode preempt = o.putObject("preempt");
        ArrayNode names = preempt.putArray("list");
        q.getPreemptList().forEach(names::add);
        ArrayNode mode = preempt.putArray("mode");
        preemptMode(q.getPreemptMode()).forEach(mode::add);
        preempt.set(
                "exempt_time",
                q.hasPreemptExemptSeconds()
                        ? Numbers.set(Integer.toUnsignedLong(q.getPreemptExemptSeconds()))
                        : Numbers.unset());
        o.set("limits", limits(q, tresIds));
        return o;
    }

    private static ObjectNode limits(QosEntry q, Map<String, Integer> tresIds) {
        ObjectNode limits = F.objectNode();
        limits.put("grace_time", q.getGraceTimeSeconds());
        ObjectNode max = limits.putObject("max");
        max.putObject("active_jobs").set("count", limit(q.hasGrpJobs(), q.getGrpJobs()));
        ObjectNode jobs = max.putObject("jobs");
        jobs.set("count", limit(q.hasGrpSubmitJobs(), q.getGrpSubmitJobs()));
        jobs.putObject("active_jobs").putObject("per").set("user", limit(q.hasMaxJobsPerUser(), q.getMaxJobsPerUser()));
        jobs.putObject("per").set("user", limit(q.hasMaxSubmitJobsPerUser(), q.getMaxSubmitJobsPerUser()));
        ObjectNode tres = max.putObject("tres");
        tres.set("total", DbJobJson.tresList(q.getGrpTres(), tresIds));
        ObjectNode per = tres.putObject("per");
        per.set("job", DbJobJson.tresList(q.getMaxTresPerJob(), tresIds));
        per.set("node", DbJobJson.tresList(q.getMaxTresPerNode(), tresIds));
        per.set("user", DbJobJson.tresList(q.getMaxTresPerUser(), tresIds));
        max.putObject("wall_clock").putObject("per").set("job", limit(q.hasMaxWallMinutes(), q.getMaxWallMinutes()));
        return limits;
    }

    /** sacctmgr's QOS flags as the data parsers name them; words they do not know left out. */
    public static List<String> flagNames(List<String> sacctmgrFlags) {
        return sacctmgrFlags.stream()
                .map(f -> FLAGS.get(f.strip().toLowerCase(Locale.ROOT)))
                .filter(java.util.Objects::nonNull)
                .toList();
    }

    /** A limit sluice-dbd keeps: unset means none, Slurm's INFINITE; zero is a limit of zero. */
    private static ObjectNode limit(boolean has, int value) {
        long n = Integer.toUnsignedLong(value);
        return has && n != dev.sluice.common.slurm.SlurmLimits.INFINITE ? Numbers.set(n) : Numbers.infinite();
    }

    /**
     * sacctmgr's PreemptMode words: "cluster" (none of its own, Slurm's zero) and "off" are
     * DISABLED, the others their upper-case flag; "suspend,gang" gives both.
     */
    static List<String> preemptMode(String text) {
        if (text.isBlank()) {
            return List.of("DISABLED");
        }
        return java.util.Arrays.stream(text.split(","))
                .map(s -> s.strip().toUpperCase(Locale.ROOT))
                .map(s -> s.equals("CLUSTER") || s.equals("OFF") ? "DISABLED" : s)
                .filter(s -> List.of("DISABLED", "SUSPEND", "REQUEUE", "CANCEL", "GANG")
                        .contains(s))
                .distinct()
                .toList();
    }
}
