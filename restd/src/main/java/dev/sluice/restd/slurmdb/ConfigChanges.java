package dev.sluice.restd.slurmdb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.cli.command.sacct.AccountingClient.AccountingException;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.restd.controller.AccountingSession;
import dev.sluice.restd.http.Envelope;
import dev.sluice.restd.http.Reply;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code GET config} and {@code POST config} of the newer data parsers: the whole accounting
 * configuration (clusters, TRES, accounts, users, QOS, wckeys, associations and, up to v0.0.44,
 * instances), each listed as its own endpoint lists it; and a configuration applied as slurmrestd
 * applies one, section by section in that order, each read as its own POST reads it, every
 * change tried and then, when none was refused, every one committed. Each change is tried
 * against the database as it stands, so an association under an account added by the same body
 * is refused; TRES are not updated (slurmrestd updates none either) and a TRES or instance given
 * is refused by name.
 */
final class ConfigChanges {
    private static final Set<String> SECTIONS = Set.of(
            "clusters",
            "tres",
            "accounts",
            "users",
            "qos",
            "wckeys",
            "associations",
            "instances",
            "meta",
            "errors",
            "warnings");

    /** Sections a configuration may hold that sluice-dbd does not change, and why. */
    private static final Map<String, String> UNAPPLIED =
            Map.of("tres", "sluice-dbd updates no TRES", "instances", "sluice-dbd keeps no instances");

    private ConfigChanges() {}

    /** {@code GET config}: every list; a plain user's is refused as its wckeys are (2002). */
    static Reply get(SlurmdbReads reads, AccountingSession dbd, Envelope out, boolean instances)
            throws AccountingException {
        reads.clusters(dbd, out, "");
        reads.tres(dbd, out);
        ObjectNode body = out.body();
        body.set("tres", body.remove("TRES"));
        reads.accounts(dbd, out, "");
        reads.users(dbd, out, "");
        reads.qos(dbd, out, List.of());
        WckeyChanges.list(dbd, out, Map.of(), "");
        reads.associations(dbd, out, Map.of());
        if (instances) {
            body.putArray("instances");
        }
        return out.reply(200);
    }

    /** {@code POST config}: the sections given, none of them required. */
    static Reply post(AccountingSession dbd, Envelope out, Optional<JsonNode> body, String cluster)
            throws AccountingException, DbWrites.BadBody {
        JsonNode config = body.orElseThrow(() -> new DbWrites.BadBody("no configuration given"));
        if (!config.isObject()) {
            throw new DbWrites.BadBody("a configuration must be an object");
        }
        DbWrites.onlyApplied(config, SECTIONS, "");
        for (Map.Entry<String, String> unapplied : UNAPPLIED.entrySet()) {
            if (!DbWrites.empty(config.path(unapplied.getKey()))) {
                throw new DbWrites.BadBody("sluice-restd does not apply field '" + unapplied.getKey() + "' ("
                        + unapplied.getValue() + ")");
            }
        }
        List<DbdRequest.Builder> changes = new ArrayList<>();
        changes.addAll(ClusterChanges.changes(section(body, "clusters")));
        changes.addAll(AccountChanges.changes(dbd, out, section(body, "accounts")));
        changes.addAll(UserChanges.changes(dbd, out, section(body, "users")));
        changes.addAll(QosChanges.changes(dbd, section(body, "qos")));
        changes.addAll(WckeyChanges.changes(section(body, "wckeys")));
        changes.addAll(AssocChanges.changes(dbd, section(body, "associations"), cluster));
        DbWrites.tryThenCommit(dbd, changes);
        return out.reply(200);
    }

    /** A section's list; one not given is none. */
    private static List<JsonNode> section(Optional<JsonNode> body, String field) throws DbWrites.BadBody {
        JsonNode v = body.orElseThrow().path(field);
        return v.isMissingNode() || v.isNull() ? List.of() : DbWrites.list(body, field);
    }
}
