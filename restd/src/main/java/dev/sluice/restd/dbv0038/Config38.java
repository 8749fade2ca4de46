package dev.sluice.restd.dbv0038;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.cli.command.sacct.AccountingClient.AccountingException;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.protocol.v1.AddClusterRequest;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.restd.controller.AccountingSession;
import dev.sluice.restd.http.Reply;
import dev.sluice.restd.http.RestErrors;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * dbv0.0.38's writes of TRES, wckeys and a whole configuration, as slurmrestd 22.05 answers them
 * (compat 203, 204, 206). 22.05 updates no TRES through the API at all; a configuration it reads
 * section by section, in a fixed order, and commits only when no section failed (its wckeys read
 * as {@link Wckeys38} reads them).
 */
final class Config38 {
    private static final String CLUSTERS_ADD = "slurmdb_clusters_add";

    private Config38() {}

    /** {@code POST tres}: refused whoever asks and whatever the body holds (2036, status 500). */
    static Reply tres(DbEnvelope38 out) {
        ErrorCode no = ErrorCode.NOT_SUPPORTED;
        return out.error("Updating TRES is not currently supported.", no.number(), no.text(), null)
                .reply(500);
    }

    /**
     * {@code POST config}: clusters, accounts, users, QOS, wckeys and associations, in that
     * order, each read as its own POST reads it and tried without committing. Missing clusters
     * are noted (9200) and read as none; any other missing list fails the whole (compat 204,
     * 206). A failure ends the reading with "refusing to commit after error"; a body read whole
     * is answered 200, and, as by 22.05, nothing is committed (compat 206). The TRES of a
     * configuration are not read (22.05 notes no missing {@code tres} and adds none).
     */
    static Reply config(
            AccountingSession dbd, DbEnvelope38 out, Optional<JsonNode> body, String cluster, boolean operator) {
        List<DbdRequest.Builder> changes = new ArrayList<>();
        try {
            try {
                changes.addAll(clusterChanges(out, body, operator));
                changes.addAll(strict(() -> AssocPosts38.ACCOUNTS.changes(dbd, out, body)));
                changes.addAll(strict(() -> AssocPosts38.USERS.changes(dbd, out, body)));
                changes.addAll(strict(() -> QosPosts38.qosChanges(dbd, out, body)));
                changes.addAll(Wckeys38.changes(out, body, operator));
                changes.addAll(strict(() -> AssocPosts38.associationChanges(out, body, cluster)));
            } catch (AccountingException e) {
                ErrorCode db = ErrorCode.DB_CONNECTION;
                throw new Posts38.Refused(out.error(null, db.number(), db.text(), "slurmdb_config_get"), 500);
            }
            Posts38.attempt(dbd, changes, out, "slurmdb_config_add", 500, false, false);
            return out.reply(200);
        } catch (Posts38.Refused r) {
            int rc = lastNumber(r.out);
            String text = rc == RestErrors.INVALID_QUERY.number()
                    ? RestErrors.INVALID_QUERY.text()
                    : ErrorCode.fromNumber(rc).number() == rc
                            ? ErrorCode.fromNumber(rc).text()
                            : Posts38.UNSPECIFIED_TEXT;
            return r.out.error("refusing to commit after error", rc, text, null).reply(r.status);
        }
    }

    private interface Section {
        List<DbdRequest.Builder> read() throws Posts38.Refused, AccountingException;
    }

    /** A missing list, which a section's own POST notes and goes on without, fails a configuration. */
    private static List<DbdRequest.Builder> strict(Section s) throws Posts38.Refused, AccountingException {
        try {
            return s.read();
        } catch (Posts38.Refused r) {
            throw r.status == 200 ? new Posts38.Refused(r.out, 400) : r;
        }
    }

    /**
     * The clusters: a missing list noted and read as empty; a plain user is refused even then
     * (2002), as slurmdbd refuses a plain user's addition of clusters.
     */
    private static List<DbdRequest.Builder> clusterChanges(DbEnvelope38 out, Optional<JsonNode> body, boolean operator)
            throws Posts38.Refused {
        List<JsonNode> wanted = lenientList(out, body);
        if (!operator) {
            throw denied(out, CLUSTERS_ADD);
        }
        if (wanted.isEmpty()) {
            return List.of();
        }
        AddClusterRequest.Builder add = AddClusterRequest.newBuilder();
        for (JsonNode c : wanted) {
            Posts38.blank(c, Set.of("name"), CLUSTERS_ADD, out, 500);
            String name = Posts38.text(c, "name");
            if (name.isEmpty()) {
                throw Posts38.unspecified(out, CLUSTERS_ADD, 500);
            }
            add.addNames(name);
        }
        return List.of(DbdRequest.newBuilder().setAddClusters(add));
    }

    private static List<JsonNode> lenientList(DbEnvelope38 out, Optional<JsonNode> body) {
        try {
            return Posts38.list(body, "clusters", out);
        } catch (Posts38.Refused r) {
            return List.of();
        }
    }

    private static Posts38.Refused denied(DbEnvelope38 out, String source) {
        ErrorCode denied = ErrorCode.ACCESS_DENIED;
        return new Posts38.Refused(out.error(null, denied.number(), denied.text(), source), 500);
    }

    /**
     * The number the failure ends with: the last error's, where a missing list (9200) reads as
     * an invalid query (9000), as 22.05 reports it.
     */
    private static int lastNumber(DbEnvelope38 out) {
        JsonNode errors = out.body().path("errors");
        JsonNode last = errors.path(errors.size() - 1);
        int n = last.path("error_number").asInt(Posts38.UNSPECIFIED);
        return n == RestErrors.DATA_PATH_NOT_FOUND.number() ? RestErrors.INVALID_QUERY.number() : n;
    }
}
