package dev.sluice.restd.slurmdb;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.cli.command.sacct.AccountingClient.AccountingException;
import dev.sluice.protocol.v1.AddQosRequest;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.ListQosRequest;
import dev.sluice.protocol.v1.ModifyQosRequest;
import dev.sluice.protocol.v1.QosEntry;
import dev.sluice.protocol.v1.TresEntry;
import dev.sluice.restd.controller.AccountingSession;
import dev.sluice.restd.http.Envelope;
import dev.sluice.restd.http.Reply;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code POST qos} of the newer data parsers: each QOS added as {@code sacctmgr add qos} adds it
 * (what is not given keeps Slurm's defaults) or, when it exists, changed in what the body gives;
 * a count set {@code infinite} clears that limit; a TRES limit changes the TRES it names (the
 * daemon merges them). A value of the wrong type, an unknown TRES, flag, preempt mode or QOS is
 * refused, and so is a limit sluice-dbd does not keep that holds a value, by its path. The
 * settings' places are {@link QosLimits}'s, as v0.0.38's reader's.
 */
final class QosChanges {
    /** Counts the newer parsers add to v0.0.38's. */
    private static final Map<String, String> COUNTS;

    static {
        Map<String, String> counts = new HashMap<>(QosLimits.COUNTS);
        counts.put("limits/max/jobs/count", "grpsubmitjobs");
        COUNTS = Map.copyOf(counts);
    }

    private static final Set<String> TOP = Set.of(
            "name", "description", "priority", "flags", "limits", "preempt", "usage_factor", "usage_threshold", "id");

    private QosChanges() {}

    static Reply add(AccountingSession dbd, Envelope out, Optional<JsonNode> body)
            throws AccountingException, DbWrites.BadBody {
        DbWrites.tryThenCommit(dbd, changes(dbd, DbWrites.list(body, "qos")));
        return out.reply(200);
    }

    /** What adding or updating {@code qos} asks of sluice-dbd (also a configuration's QOS). */
    static List<DbdRequest.Builder> changes(AccountingSession dbd, List<JsonNode> qos)
            throws AccountingException, DbWrites.BadBody {
        if (qos.isEmpty()) {
            return List.of();
        }
        Set<String> existing = new HashSet<>();
        dbd.call(DbdRequest.newBuilder().setListQos(ListQosRequest.getDefaultInstance()))
                .getListedQos()
                .getQosList()
                .forEach(q -> existing.add(q.getName()));
        List<TresEntry> tres = TresLists.known(dbd);
        List<DbdRequest.Builder> changes = new ArrayList<>();
        for (JsonNode q : qos) {
            DbWrites.onlyApplied(q, TOP, "qos/");
            String name = DbWrites.text(q, "name").orElse("");
            if (name.isEmpty()) {
                throw new DbWrites.BadBody("Cannot create a QOS without a name");
            }
            QosEntry.Builder settings = QosEntry.newBuilder().setName(name);
            List<String> given = new ArrayList<>();
            List<String> cleared = new ArrayList<>();
            read(q, tres, existing, settings, given, cleared);
            if (existing.contains(name)) {
                changes.add(DbdRequest.newBuilder()
                        .setModifyQos(ModifyQosRequest.newBuilder()
                                .addNames(name)
                                .setSettings(settings)
                                .addAllGiven(given)
                                .addAllCleared(cleared)));
            } else {
                changes.add(DbdRequest.newBuilder()
                        .setAddQos(AddQosRequest.newBuilder()
                                .addNames(name)
                                .setSettings(settings)
                                .addAllGiven(given)));
            }
        }
        return changes;
    }

    private static void read(
            JsonNode q,
            List<TresEntry> tres,
            Set<String> qosNames,
            QosEntry.Builder settings,
            List<String> given,
            List<String> cleared)
            throws DbWrites.BadBody {
        Set<String> known = new HashSet<>(COUNTS.keySet());
        known.addAll(QosLimits.TRES.keySet());
        DbWrites.refuseUnapplied(q.path("limits"), "limits/", known, Set.of(), "qos/");
        DbWrites.refuseUnapplied(
                q.path("preempt"),
                "preempt/",
                Set.of("preempt/exempt_time", "preempt/list", "preempt/mode"),
                Set.of(),
                "qos/");
        DbWrites.text(q, "description").ifPresent(d -> {
            settings.setDescription(d);
            given.add("description");
        });
        Optional<Long> priority = DbWrites.count(q.path("priority"), "priority");
        if (priority.isPresent()) {
            if (priority.get() == DbWrites.INFINITE) {
                throw new DbWrites.BadBody("priority cannot be infinite");
            }
            settings.setPriority(priority.get().intValue());
            given.add("priority");
        }
        for (Map.Entry<String, String> c : COUNTS.entrySet()) {
            Optional<Long> n = DbWrites.count(at(q, c.getKey()), c.getKey());
            if (n.isEmpty()) {
                continue;
            }
            if (n.get() == DbWrites.INFINITE) {
                cleared.add(c.getValue());
                continue;
            }
            int v = n.get().intValue();
            switch (c.getValue()) {
                case "gracetime" -> settings.setGraceTimeSeconds(v);
                case "grpjobs" -> settings.setGrpJobs(v);
                case "grpsubmitjobs" -> settings.setGrpSubmitJobs(v);
                case "maxjobsperuser" -> settings.setMaxJobsPerUser(v);
                case "maxsubmitjobsperuser" -> settings.setMaxSubmitJobsPerUser(v);
                case "maxwall" -> settings.setMaxWallMinutes(v);
                default -> settings.setPreemptExemptSeconds(v);
            }
            given.add(c.getValue());
        }
        for (Map.Entry<String, String> t : QosLimits.TRES.entrySet()) {
            Optional<String> counts = TresLists.text(at(q, t.getKey()), "qos/" + t.getKey(), tres);
            if (counts.isEmpty()) {
                continue;
            }
            switch (t.getValue()) {
                case "maxtresperjob" -> settings.setMaxTresPerJob(counts.get());
                case "maxtresperuser" -> settings.setMaxTresPerUser(counts.get());
                case "maxtresperaccount" -> settings.setMaxTresPerAccount(counts.get());
                case "maxtrespernode" -> settings.setMaxTresPerNode(counts.get());
                default -> settings.setGrpTres(counts.get());
            }
            given.add(t.getValue());
        }
        factor(q, "usage_factor").ifPresent(f -> {
            settings.setUsageFactor(f);
            given.add("usagefactor");
        });
        factor(q, "usage_threshold").ifPresent(f -> {
            settings.setUsageThreshold(f);
            given.add("usagethreshold");
        });
        if (q.has("flags")) {
            settings.addAllFlags(QosJson.sacctmgrFlags(DbWrites.strings(q, "flags"))
                    .orElseThrow(() -> new DbWrites.BadBody("unknown QOS flag in qos/flags")));
            given.add("flags");
        }
        if (q.path("preempt").has("mode")) {
            String mode = "cluster";
            for (String m : DbWrites.strings(q.path("preempt"), "mode")) {
                String sacctmgr = QosLimits.MODES.get(m.toUpperCase(Locale.ROOT));
                if (sacctmgr == null) {
                    throw new DbWrites.BadBody("unknown preempt mode " + m);
                }
                mode = sacctmgr.equals("cluster") ? mode : sacctmgr;
            }
            settings.setPreemptMode(mode);
            given.add("preemptmode");
        }
        if (q.path("preempt").has("list")) {
            List<String> names = new ArrayList<>();
            for (String n : DbWrites.strings(q.path("preempt"), "list")) {
                String lower = n.toLowerCase(Locale.ROOT);
                if (!qosNames.contains(lower)) {
                    throw new DbWrites.BadBody("QOS " + n + " in qos/preempt/list does not exist");
                }
                names.add(lower);
            }
            // Kept and printed by name, as sacctmgr keeps them.
            settings.addAllPreempt(names.stream().distinct().sorted().toList());
            given.add("preempt");
        }
    }

    /** A float of the newer parsers: a number or {@code {"set", "infinite", "number"}}. */
    private static Optional<Double> factor(JsonNode q, String field) throws DbWrites.BadBody {
        JsonNode v = q.path(field);
        if (v.isObject()) {
            if (v.path("infinite").asBoolean(false)) {
                throw new DbWrites.BadBody(field + " cannot be infinite");
            }
            if (v.has("set") && !v.path("set").asBoolean()) {
                return Optional.empty();
            }
            v = v.path("number");
        }
        if (v.isMissingNode() || v.isNull()) {
            return Optional.empty();
        }
        if (!v.isNumber()) {
            throw new DbWrites.BadBody(field + " must be a number");
        }
        return Optional.of(v.asDouble());
    }

    private static JsonNode at(JsonNode q, String path) {
        JsonNode v = q;
        for (String step : path.split("/")) {
            v = v.path(step);
        }
        return v;
    }
}
