package dev.sluice.restd.dbv0038;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.tres.Tres;
import dev.sluice.protocol.v1.QosEntry;
import dev.sluice.protocol.v1.TresEntry;
import dev.sluice.restd.dbv0038.Posts38.Refused;
import dev.sluice.restd.http.RestErrors;
import dev.sluice.restd.slurmdb.QosJson;
import dev.sluice.restd.slurmdb.QosLimits;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * One QOS of a dbv0.0.38 {@code POST qos} body, read as slurmrestd 22.05's parser reads it
 * (compat 192, 193): the settings, and the sacctmgr keys they set ({@code given}). Its flags
 * and preempt mode are always set (22.05 resets them when a change leaves them out); an empty
 * preempt list changes nothing. A value of the wrong type, an unknown TRES, flag, mode or QOS
 * is refused with 22.05's errors; a limit sluice-dbd does not keep, holding a value, with -1.
 */
final class QosBody38 {
    private static final Map<String, String> COUNTS = QosLimits.COUNTS;

    private static final Map<String, String> TRES = QosLimits.TRES;

    /** The rest of the schema: read elsewhere ({@code name}, ...), or refused when set. */
    private static final Set<String> TOP = Set.of(
            "name", "description", "priority", "flags", "limits", "preempt", "usage_factor", "usage_threshold", "id");

    private static final Map<String, String> MODES = QosLimits.MODES;

    private final List<TresEntry> tres;
    private final Set<String> qosNames;
    private final DbEnvelope38 out;

    QosBody38(List<TresEntry> tres, Set<String> qosNames, DbEnvelope38 out) {
        this.tres = tres;
        this.qosNames = qosNames;
        this.out = out;
    }

    /**
     * Reads {@code q} into {@code settings}, naming what it sets in {@code given}; {@code was}
     * the QOS as it stands (null: a new one), whose TRES limits a change merges into: the TRES
     * named change, the others stay (compat 194).
     */
    void read(JsonNode q, QosEntry was, QosEntry.Builder settings, List<String> given) throws Refused {
        Posts38.blank(q, TOP, "slurmdb_qos_add", out, 400);
        for (Map.Entry<String, String> c : COUNTS.entrySet()) {
            JsonNode v = at(q, c.getKey());
            if (v.isMissingNode() || v.isNull()) {
                continue;
            }
            int n = count(v, c.getKey());
            switch (c.getValue()) {
                case "gracetime" -> settings.setGraceTimeSeconds(n);
                case "grpjobs" -> settings.setGrpJobs(n);
                case "maxjobsperuser" -> settings.setMaxJobsPerUser(n);
                case "maxsubmitjobsperuser" -> settings.setMaxSubmitJobsPerUser(n);
                case "maxwall" -> settings.setMaxWallMinutes(n);
                default -> settings.setPreemptExemptSeconds(n);
            }
            given.add(c.getValue());
        }
        for (Map.Entry<String, String> t : TRES.entrySet()) {
            JsonNode v = at(q, t.getKey());
            if (v.isMissingNode() || v.isNull() || (v.isArray() && v.isEmpty())) {
                continue;
            }
            Map<String, Long> counts = tres(v, t.getKey());
            switch (t.getValue()) {
                case "maxtresperjob" ->
                    settings.setMaxTresPerJob(merged(was == null ? "" : was.getMaxTresPerJob(), counts));
                case "maxtresperuser" ->
                    settings.setMaxTresPerUser(merged(was == null ? "" : was.getMaxTresPerUser(), counts));
                case "maxtresperaccount" ->
                    settings.setMaxTresPerAccount(merged(was == null ? "" : was.getMaxTresPerAccount(), counts));
                case "maxtrespernode" ->
                    settings.setMaxTresPerNode(merged(was == null ? "" : was.getMaxTresPerNode(), counts));
                default -> settings.setGrpTres(merged(was == null ? "" : was.getGrpTres(), counts));
            }
            given.add(t.getValue());
        }
        refuseUnkept(q.path("limits"), "limits");
        JsonNode factor = q.path("usage_factor");
        if (!factor.isMissingNode() && !factor.isNull()) {
            if (!factor.isNumber()) {
                throw convert("usage_factor");
            }
            settings.setUsageFactor(factor.asDouble());
            given.add("usagefactor");
        }
        JsonNode threshold = q.path("usage_threshold");
        if (!threshold.isMissingNode() && !threshold.isNull()) {
            if (!threshold.isNumber()) {
                throw convert("usage_threshold");
            }
            settings.setUsageThreshold(threshold.asDouble());
            given.add("usagethreshold");
        }
        List<String> flags = names(q.path("flags"), "flags");
        settings.addAllFlags(QosJson.sacctmgrFlags(flags).orElseThrow(() -> unknownFlag("flags")));
        given.add("flags");
        String mode = "cluster";
        for (String m : names(q.path("preempt").path("mode"), "preempt/mode")) {
            String known = MODES.get(m);
            if (known == null) {
                throw unknownFlag("preempt/mode");
            }
            mode = known.equals("cluster") ? mode : known;
        }
        settings.setPreemptMode(mode);
        given.add("preemptmode");
        List<String> preempt = names(q.path("preempt").path("list"), "preempt/list");
        if (!preempt.isEmpty()) {
            List<String> lower = new ArrayList<>();
            for (String name : preempt) {
                String n = name.toLowerCase(Locale.ROOT);
                if (!qosNames.contains(n)) {
                    out.error("QOS name to ID conversion failed", fail(), failText(), name);
                    throw parse("preempt/list");
                }
                lower.add(n);
            }
            // Kept and printed by name, as sacctmgr keeps them.
            settings.addAllPreempt(lower.stream().distinct().sorted().toList());
            given.add("preempt");
        }
    }

    /** A count: a whole number, 0 or more; anything else is 9202 for its path. */
    private int count(JsonNode v, String path) throws Refused {
        if (!v.isIntegralNumber() || !v.canConvertToInt() || v.asInt() < 0) {
            throw convert(path);
        }
        return v.asInt();
    }

    /** {@code counts} over the TRES string {@code stored}: slurmdbd's text of the result. */
    private static String merged(String stored, Map<String, Long> counts) {
        Map<String, Long> all = new LinkedHashMap<>(
                stored.isBlank() ? Map.of() : Tres.parse(stored).asMap());
        all.putAll(counts);
        return Tres.of(all).format();
    }

    /** A TRES list by name ({@code gres/gpu}), each TRES one the database knows. */
    private Map<String, Long> tres(JsonNode list, String path) throws Refused {
        if (!list.isArray()) {
            throw convert(path);
        }
        Map<String, Long> counts = new LinkedHashMap<>();
        for (JsonNode item : list) {
            String type = item.path("type").asText("");
            String name = item.path("name").isTextual() ? item.path("name").asText() : "";
            JsonNode count = item.path("count");
            if (!count.isMissingNode() && !count.isNull() && !count.isIntegralNumber()) {
                out.error("Failed to parse field 'count'", convertNumber(), convertText(), "_parser_run");
                throw parse(path);
            }
            TresEntry known = tres.stream()
                    .filter(t ->
                            t.getType().equalsIgnoreCase(type) && t.getName().equalsIgnoreCase(name))
                    .findFirst()
                    .orElse(null);
            if (known == null) {
                ErrorCode invalid = ErrorCode.INVALID_TRES;
                out.error(
                        "Couldn't find TRES matching name:" + (name.isEmpty() ? "(null)" : name) + " type:" + type,
                        invalid.number(),
                        invalid.text(),
                        "_for_each_parse_tres_count");
                throw parse(path);
            }
            counts.put(Tres38.key(known), count.asLong(0));
        }
        return counts;
    }

    /** A limit sluice-dbd does not keep, holding a value: refused rather than dropped. */
    private void refuseUnkept(JsonNode node, String path) throws Refused {
        if (COUNTS.containsKey(path) || TRES.containsKey(path) || node.isMissingNode() || node.isNull()) {
            return;
        }
        if (node.isObject()) {
            for (var f = node.fields(); f.hasNext(); ) {
                var e = f.next();
                refuseUnkept(e.getValue(), path + "/" + e.getKey());
            }
            return;
        }
        if (node.isArray() && node.isEmpty()) {
            return;
        }
        out.error(
                "sluice-restd does not apply field '" + path + "' here",
                Posts38.UNSPECIFIED,
                Posts38.UNSPECIFIED_TEXT,
                "slurmdb_qos_add");
        throw new Refused(out, 400);
    }

    private List<String> names(JsonNode list, String path) throws Refused {
        List<String> names = new ArrayList<>();
        if (list.isMissingNode() || list.isNull()) {
            return names;
        }
        if (!list.isArray()) {
            throw convert(path);
        }
        for (JsonNode n : list) {
            if (!n.isTextual()) {
                throw convert(path);
            }
            names.add(n.asText().strip());
        }
        return names;
    }

    private static JsonNode at(JsonNode q, String path) {
        JsonNode v = q;
        for (String step : path.split("/")) {
            v = v.path(step);
        }
        return v;
    }

    private Refused unknownFlag(String path) {
        out.error("Unknown flag", fail(), failText(), path);
        return parse(path);
    }

    private Refused parse(String path) {
        out.error("Failed to parse field '" + path + "'", fail(), failText(), "_parser_run");
        return new Refused(out, 400);
    }

    private Refused convert(String path) {
        out.error("Failed to parse field '" + path + "'", convertNumber(), convertText(), "_parser_run");
        return new Refused(out, 400);
    }

    private static int fail() {
        return RestErrors.FAIL_PARSING.number();
    }

    private static String failText() {
        return RestErrors.FAIL_PARSING.text();
    }

    private static int convertNumber() {
        return RestErrors.DATA_CONVERSION.number();
    }

    private static String convertText() {
        return RestErrors.DATA_CONVERSION.text();
    }
}
