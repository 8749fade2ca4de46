package dev.sluice.restd.dbv0038;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.restd.http.Reply;
import java.util.Optional;

/**
 * What slurmrestd 22.05 answers on a dbv0.0.38 path when slurmdbd refused the token it passed on
 * (compat 277): "Protocol authentication error" from the first call the endpoint makes, which
 * for the accounts, clusters and config is the TRES list they are written with, and for the
 * writes and the statistics a bare failure. Sluice refuses the token before anything is asked
 * and answers the same.
 */
final class RefusedDb38 {
    private static final ErrorCode AUTH = ErrorCode.AUTHENTICATION_ERROR;
    private static final String UNSPECIFIED = "Unspecified error";

    private RefusedDb38() {}

    /** The answer for the route {@code key} (as {@code Endpoints} names it); empty: its handler words it. */
    static Optional<Reply> answer(String key) {
        DbEnvelope38 out = new DbEnvelope38();
        return Optional.ofNullable(
                switch (key) {
                    case "GET accounts", "GET account/*" -> refused(out, "accounts", "slurmdb_tres_get", 500);
                    case "GET clusters", "GET cluster/*", "GET config" ->
                        refused(out, "clusters", "slurmdb_tres_get", 500);
                    case "GET users", "GET user/*" -> refused(out, "users", "slurmdb_users_get", 500);
                    case "GET wckeys" -> refused(out, "wckeys", "slurmdb_wckeys_get", 500);
                    // The job listings and the TRES answer 200 whatever failed.
                    case "GET jobs", "GET job/*" -> refused(out, "jobs", "slurmdb_jobs_get", 200);
                    case "GET tres" -> refused(out, null, "slurmdb_tres_get", 200);
                    case "GET associations" -> refused(out, null, "slurmdb_associations_get", 500);
                    case "GET qos", "GET qos/*" -> refused(out, null, "slurmdb_qos_get", 500);
                    case "DELETE user/*" -> refused(out, null, "slurmdb_users_remove", 500);
                    case "DELETE qos/*" -> refused(out, null, "slurmdb_qos_remove", 500);
                    // The removal fails, and so does the commit slurmrestd attempts after it.
                    case "DELETE account/*" -> {
                        out.error(null, AUTH.number(), AUTH.text(), "slurmdb_accounts_remove");
                        yield out.error(null, -1, UNSPECIFIED, "slurmdb_connection_commit")
                                .reply(500);
                    }
                    case "POST accounts" ->
                        out.error(null, -1, UNSPECIFIED, "slurmdb_accounts_add").reply(500);
                    case "GET diag" ->
                        out.error(null, -1, UNSPECIFIED, "slurmdb_get_stats").reply(500);
                    default -> null;
                });
    }

    /** The error, and the listing's key (empty) where slurmrestd gives one. */
    private static Reply refused(DbEnvelope38 out, String listing, String source, int status) {
        if (listing != null) {
            out.body().putArray(listing);
        }
        return out.error(null, AUTH.number(), AUTH.text(), source).reply(status);
    }
}
