package dev.sluice.restd.dbv0038;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.protocol.v1.QosEntry;
import dev.sluice.protocol.v1.TresEntry;
import dev.sluice.restd.slurmdb.QosJson;
import java.util.List;
import java.util.Locale;

/**
 * A QOS in dbv0.0.38's shape (compat 153): limits slurmdbd keeps and sluice-dbd does not (accrue,
 * per-account jobs, TRES-minutes) are null or empty, as an unset one is in 22.05.
 */
final class Qos38 {
    private Qos38() {}

    static ArrayNode list(List<QosEntry> qos, List<TresEntry> tres) {
        ArrayNode out = DbEnvelope38.F.arrayNode();
        qos.forEach(q -> out.add(of(q, tres)));
        return out;
    }

    static ObjectNode of(QosEntry q, List<TresEntry> tres) {
        ObjectNode o = DbEnvelope38.F.objectNode();
        o.put("description", q.getDescription());
        ArrayNode flags = o.putArray("flags");
        QosJson.flagNames(q.getFlagsList()).forEach(flags::add);
        o.put("id", q.getId());
        ObjectNode limits = o.putObject("limits");
        limits.putNull("factor");
        limits.put("grace_time", q.getGraceTimeSeconds());
        ObjectNode max = limits.putObject("max");
        ObjectNode accruing = max.putObject("accruing").putObject("per");
        accruing.putNull("account");
        accruing.putNull("user");
        ObjectNode active = max.putObject("active_jobs");
        active.putNull("accruing");
        number(active, "count", q.hasGrpJobs(), q.getGrpJobs());
        ObjectNode jobs = max.putObject("jobs");
        ObjectNode activePer = jobs.putObject("active_jobs").putObject("per");
        activePer.putNull("account");
        number(activePer, "user", q.hasMaxJobsPerUser(), q.getMaxJobsPerUser());
        ObjectNode jobsPer = jobs.putObject("per");
        jobsPer.putNull("account");
        number(jobsPer, "user", q.hasMaxSubmitJobsPerUser(), q.getMaxSubmitJobsPerUser());
        ObjectNode tresMax = max.putObject("tres");
        ObjectNode minutesPer = tresMax.putObject("minutes").putObject("per");
        for (String k : List.of("account", "job", "qos", "user")) {
            minutesPer.putArray(k);
        }
        ObjectNode per = tresMax.putObject("per");
        per.set("account", Tres38.list(q.getMaxTresPerAccount(), tres));
        per.set("job", Tres38.list(q.getMaxTresPerJob(), tres));
        per.set("node", Tres38.list(q.getMaxTresPerNode(), tres));
        per.set("user", Tres38.list(q.getMaxTresPerUser(), tres));
        tresMax.set("total", Tres38.list(q.getGrpTres(), tres));
        ObjectNode wall = max.putObject("wall_clock").putObject("per");
        number(wall, "job", q.hasMaxWallMinutes(), q.getMaxWallMinutes());
        wall.putNull("qos");
        ObjectNode min = limits.putObject("min");
        min.putNull("priority_threshold");
        min.putObject("tres").putObject("per").putArray("job");
        o.put("name", q.getName());
        ObjectNode preempt = o.putObject("preempt");
        if (q.hasPreemptExemptSeconds()) {
            preempt.put("exempt_time", Integer.toUnsignedLong(q.getPreemptExemptSeconds()));
        } else {
            preempt.putNull("exempt_time");
        }
        ArrayNode names = preempt.putArray("list");
        q.getPreemptList().forEach(names::add);
        ArrayNode mode = preempt.putArray("mode");
        modes(q.getPreemptMode()).forEach(mode::add);
        o.put("priority", Integer.toUnsignedLong(q.getPriority()));
        o.put("usage_factor", q.getUsageFactor());
        if (q.hasUsageThreshold()) {
            o.put("usage_threshold", q.getUsageThreshold());
        } else {
            o.putNull("usage_threshold");
        }
        return o;
    }

    /** sacctmgr's PreemptMode words: "cluster" (none of its own) and "off" add no mode here. */
    private static List<String> modes(String text) {
        return java.util.Arrays.stream(text.split(","))
                .map(s -> s.strip().toUpperCase(Locale.ROOT))
                .filter(s -> List.of("SUSPEND", "REQUEUE", "CANCEL", "GANG").contains(s))
                .distinct()
                .toList();
    }

    private static void number(ObjectNode o, String key, boolean set, int value) {
        if (set) {
            o.put(key, Integer.toUnsignedLong(value));
        } else {
            o.putNull(key);
        }
    }
}
