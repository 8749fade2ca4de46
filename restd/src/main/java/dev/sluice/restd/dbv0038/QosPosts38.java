package dev.sluice.restd.dbv0038;

import static dev.sluice.restd.dbv0038.Posts38.apply;
import static dev.sluice.restd.dbv0038.Posts38.list;
import static dev.sluice.restd.dbv0038.Posts38.optional;
import static dev.sluice.restd.dbv0038.Posts38.text;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.cli.command.sacct.AccountingClient.AccountingException;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.protocol.v1.AddQosRequest;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.ListQosRequest;
import dev.sluice.protocol.v1.ListTresRequest;
import dev.sluice.protocol.v1.ModifyQosRequest;
import dev.sluice.protocol.v1.QosEntry;
import dev.sluice.restd.controller.AccountingSession;
import dev.sluice.restd.dbv0038.Posts38.Refused;
import dev.sluice.restd.http.Reply;
import dev.sluice.restd.http.RestErrors;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** dbv0.0.38's "add or update" of QOS, read and committed as {@link Posts38} does every such request. */
final class QosPosts38 {
    private QosPosts38() {}

    /**
     * QOS with their settings and limits ({@link QosBody38}): a new one added as sacctmgr adds it
     * (what is not given Slurm's defaults), one that exists changed. 22.05 refuses what it
     * refuses here with status 400, a plain user's 2002 included.
     */
    static Reply qos(AccountingSession dbd, DbEnvelope38 out, Optional<JsonNode> body) {
        try {
            return apply(dbd, qosChanges(dbd, out, body), out, QOS_ADD, 400, false);
        } catch (AccountingException e) {
            ErrorCode db = ErrorCode.DB_CONNECTION;
            return out.error(null, db.number(), db.text(), "slurmdb_qos_get").reply(500);
        } catch (Refused r) {
            return r.out.reply(r.status);
        }
    }

    static final String QOS_ADD = "slurmdb_qos_add";

    /** What {@code POST qos} asks of sluice-dbd; the QOS and TRES known are asked first. */
    static List<DbdRequest.Builder> qosChanges(AccountingSession dbd, DbEnvelope38 out, Optional<JsonNode> body)
            throws Refused, AccountingException {
        List<JsonNode> wanted = list(body, "QOS", out, 400);
        java.util.Map<String, QosEntry> existing = new java.util.HashMap<>();
        dbd.call(DbdRequest.newBuilder().setListQos(ListQosRequest.getDefaultInstance()))
                .getListedQos()
                .getQosList()
                .forEach(q -> existing.put(q.getName(), q));
        QosBody38 reader = new QosBody38(
                dbd.call(DbdRequest.newBuilder().setListTres(ListTresRequest.getDefaultInstance()))
                        .getListedTres()
                        .getTresList(),
                existing.keySet(),
                out);
        List<DbdRequest.Builder> changes = new ArrayList<>();
        for (JsonNode q : wanted) {
            String name = text(q, "name");
            if (name.isEmpty()) {
                RestErrors invalid = RestErrors.INVALID_QUERY;
                throw new Refused(
                        out.error(
                                "Cannot create a QOS without a name",
                                invalid.number(),
                                invalid.text(),
                                "_foreach_update_qos"),
                        400);
            }
            QosEntry.Builder settings = QosEntry.newBuilder().setName(name);
            List<String> given = new ArrayList<>();
            optional(q, "description").ifPresent(d -> {
                settings.setDescription(d);
                given.add("description");
            });
            JsonNode priority = q.path("priority");
            if (!priority.isMissingNode() && !priority.isNull()) {
                if (!priority.canConvertToInt() || !priority.isIntegralNumber() || priority.asInt() < 0) {
                    RestErrors conv = RestErrors.DATA_CONVERSION;
                    throw new Refused(
                            out.error("Failed to parse field 'priority'", conv.number(), conv.text(), "_parser_run"),
                            400);
                }
                settings.setPriority(priority.asInt());
                given.add("priority");
            }
            reader.read(q, existing.get(name), settings, given);
            changes.add(
                    existing.containsKey(name)
                            ? DbdRequest.newBuilder()
                                    .setModifyQos(ModifyQosRequest.newBuilder()
                                            .addNames(name)
                                            .setSettings(settings)
                                            .addAllGiven(given))
                            : DbdRequest.newBuilder()
                                    .setAddQos(AddQosRequest.newBuilder()
                                            .addNames(name)
                                            .setSettings(settings)
                                            .addAllGiven(given)));
        }
        return changes;
    }
}
