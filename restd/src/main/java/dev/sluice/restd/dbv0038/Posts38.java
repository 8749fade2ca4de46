package dev.sluice.restd.dbv0038;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.cli.command.sacct.AccountingClient.AccountingException;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.restd.controller.AccountingSession;
import dev.sluice.restd.http.Reply;
import dev.sluice.restd.http.RestErrors;
import dev.sluice.restd.slurmdb.DbWrites;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What dbv0.0.38's "add or update" requests share, as slurmrestd 22.05 does them (compat 158,
 * 159): the whole body is read before sluice-dbd is asked; every change is tried without
 * committing first and committed only when none is refused, so a refused request (a plain user's:
 * 2002) changes nothing. Fields Sluice does not apply are refused when they hold a value, rather
 * than dropped. The requests themselves, by resource: {@link AssocPosts38} (accounts, users,
 * associations), {@link QosPosts38}, {@link Clusters38} and {@link Config38} (TRES, wckeys, a
 * whole configuration).
 */
final class Posts38 {
    /** A request refused before or by sluice-dbd: the answer as built so far, and its status. */
    static final class Refused extends Exception {
        final transient DbEnvelope38 out;
        final int status;

        Refused(DbEnvelope38 out, int status) {
            super(null, null, false, false);
            this.out = out;
            this.status = status;
        }
    }

    /** slurmdb's failure without a Slurm error behind it: -1, "Unspecified error". */
    static final int UNSPECIFIED = -1;

    static final String UNSPECIFIED_TEXT = "Unspecified error";

    private Posts38() {}

    /**
     * Every change tried, then every one committed; the first refusal ends it, changing nothing.
     * A refusal is 2002 when sluice-dbd's is, else -1; {@code numberless}: -1 whatever it was.
     */
    static Reply apply(
            AccountingSession dbd,
            List<DbdRequest.Builder> changes,
            DbEnvelope38 out,
            String source,
            int status,
            boolean numberless)
            throws Refused {
        attempt(dbd, changes, out, source, status, numberless, false);
        attempt(dbd, changes, out, source, status, numberless, true);
        return out.reply(200);
    }

    /** Every change asked, committed or only tried; the first refusal ends it, as in {@link #apply}. */
    static void attempt(
            AccountingSession dbd,
            List<DbdRequest.Builder> changes,
            DbEnvelope38 out,
            String source,
            int status,
            boolean numberless,
            boolean commit)
            throws Refused {
        for (DbdRequest.Builder change : changes) {
            try {
                dbd.call(DbWrites.withCommit(change.clone(), commit));
            } catch (AccountingException e) {
                if (numberless || e.code() != ErrorCode.ACCESS_DENIED.number()) {
                    throw unspecified(out, source, status);
                }
                ErrorCode denied = ErrorCode.ACCESS_DENIED;
                throw new Refused(out.error(null, denied.number(), denied.text(), source), status);
            }
        }
    }

    /** The body's list under {@code field}; none is 22.05's "Unable to resolve path", with status 200. */
    static List<JsonNode> list(Optional<JsonNode> body, String field, DbEnvelope38 out) throws Refused {
        return list(body, field, out, 200);
    }

    static List<JsonNode> list(Optional<JsonNode> body, String field, DbEnvelope38 out, int status) throws Refused {
        JsonNode list = body.map(b -> b.path(field)).orElse(DbEnvelope38.F.missingNode());
        if (!list.isArray()) {
            RestErrors missing = RestErrors.DATA_PATH_NOT_FOUND;
            throw new Refused(out.error("Query parameter not found", missing.number(), missing.text(), field), status);
        }
        List<JsonNode> items = new ArrayList<>();
        list.forEach(items::add);
        return items;
    }

    /**
     * A field Sluice does not apply here holding a value (a limit, a coordinator, a flag): the
     * request is refused, naming it, rather than half applied.
     */
    static void blank(JsonNode o, Set<String> applied, String source, DbEnvelope38 out, int status) throws Refused {
        if (!o.isObject()) {
            throw unspecified(out, source, status);
        }
        Optional<String> field = DbWrites.unapplied(o, applied);
        if (field.isPresent()) {
            out.error(
                    "sluice-restd does not apply field '" + field.get() + "' here",
                    UNSPECIFIED,
                    UNSPECIFIED_TEXT,
                    source);
            throw new Refused(out, status);
        }
    }

    static Refused unspecified(DbEnvelope38 out, String source, int status) {
        return new Refused(out.error(null, UNSPECIFIED, UNSPECIFIED_TEXT, source), status);
    }

    static String text(JsonNode o, String field) {
        JsonNode v = o.path(field);
        return v.isTextual() ? v.asText().strip() : "";
    }

    static Optional<String> optional(JsonNode o, String field) {
        JsonNode v = o.path(field);
        return v.isTextual() ? Optional.of(v.asText()) : Optional.empty();
    }
}
