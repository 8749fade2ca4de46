package dev.sluice.restd.http;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.cli.UserDirectory;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.cli.command.sacct.AccountingClient;
import dev.sluice.common.auth.AuthException;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.restd.auth.LocalAuth;
import dev.sluice.restd.auth.RestAuth;
import dev.sluice.restd.controller.AccountingSession;
import dev.sluice.restd.controller.Sessions;
import dev.sluice.restd.dbv0038.Db38;
import dev.sluice.restd.openapi.OpenApiDocument;
import dev.sluice.restd.slurm.ApiVersion;
import dev.sluice.restd.slurm.SlurmApi;
import dev.sluice.restd.slurmdb.SlurmdbApi;
import dev.sluice.restd.v0038.Api38;
import java.io.IOException;
import java.time.Clock;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * From a request to its answer, whatever server carried it: authenticates the caller, bounds
 * and parses the body, and hands the request to the data parser of its version (v0.0.38 and
 * dbv0.0.38 as slurmrestd 22.05 has them, v0.0.42 and later). A path none serves is a 404
 * in Slurm's envelope.
 */
final class Dispatcher {
    private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);
    /** slurmrestd 22.05's whole answer (text/plain) to a request it cannot authenticate. */
    static final String AUTHENTICATION_FAILURE = "Authentication failure";
    /** Its answers (text/plain) to a path no endpoint serves, and to a method none serves there. */
    static final String URL_NOT_FOUND = "Unable find requested URL. Please view /openapi/v3 for API reference.";

    static final String METHOD_NOT_DEFINED =
            "Requested REST method is not defined at URL. Please view /openapi/v3 for API reference.";

    private final RestAuth gate;
    private final Sessions sessions;
    private final String cluster;
    private final Clock clock;
    private final Api38 v0038;
    private final Db38 dbv0038;
    private final Map<ApiVersion, SlurmApi> versions = new EnumMap<>(ApiVersion.class);
    private final Map<ApiVersion, SlurmdbApi> accounting = new EnumMap<>(ApiVersion.class);

    /** @param workers where a version's API runs the calls it spreads out (job listings) */
    Dispatcher(
            RestAuth gate,
            Sessions sessions,
            String cluster,
            SlurmdbApi.Control control,
            Clock clock,
            ExecutorService workers) {
        this.gate = requireNonNull(gate, "gate is null");
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.cluster = requireNonNull(cluster, "cluster is null");
        this.clock = requireNonNull(clock, "clock is null");
        versions.putAll(SlurmApi.all(cluster, clock, workers));
        this.v0038 = new Api38(cluster, clock, UserDirectory.system());
        this.dbv0038 = new Db38(cluster, control, clock, UserDirectory.system());
        for (ApiVersion v : ApiVersion.values()) {
            accounting.put(v, new SlurmdbApi(v, cluster, control, clock));
        }
    }

    Reply answer(Exchange ex) throws IOException {
        String path = ex.path();
        RestAuth.Identity who;
        boolean tokenRefused = false;
        try {
            who = gate.authenticate(
                    new RestAuth.Presented(
                            ex.getFirst("X-SLURM-USER-NAME"), ex.getFirst("X-SLURM-USER-TOKEN"), ex.peer()),
                    clock.instant());
        } catch (AuthException e) {
            log.warn("refused {} {} from {}: {}", ex.method(), path, ex.source(), e.getMessage());
            if (gate instanceof LocalAuth) {
                return Reply.text(401, LocalAuth.REFUSAL);
            }
            boolean newer = ApiVersion.ofPath(path).isPresent()
                    || ApiVersion.ofSlurmdbPath(path).isPresent();
            String presented = ex.getFirst("X-SLURM-USER-TOKEN");
            if (!newer && (presented == null || presented.isBlank())) {
                // slurmrestd 22.05 turns a request without a token away itself (compat 276, 277).
                return Reply.text(401, AUTHENTICATION_FAILURE);
            }
            if (!path.startsWith(Api38.PREFIX) && !path.startsWith(Db38.PREFIX)) {
                return envelope("", ex)
                        .error(
                                ErrorCode.AUTH_CRED_INVALID.number(),
                                ErrorCode.AUTH_CRED_INVALID.text(),
                                "Authentication failure",
                                gate.plugin())
                        .reply(401);
            }
            // It passes any other token on, and answers as the daemon that refused it did.
            tokenRefused = true;
            String named = ex.getFirst("X-SLURM-USER-NAME");
            who = new RestAuth.Identity(named == null ? "" : named.strip(), "");
        }
        String user = who.user();
        String token = who.token();
        Optional<JsonNode> body;
        try {
            body = RequestBody.read(ex);
        } catch (RequestBody.TooLarge e) {
            return envelope(user, ex)
                    .error(
                            RestErrors.FAIL_PARSING.number(),
                            RestErrors.FAIL_PARSING.text(),
                            "request body is over " + RequestBody.MAX_BODY_BYTES + " bytes",
                            "restd")
                    .reply(413);
        } catch (JacksonException e) {
            if (path.startsWith(Db38.PREFIX)) {
                // slurmrestd 22.05 answers a dbv0.0.38 body it cannot read with this text alone
                // (compat 203), as it answers a query it cannot read.
                return Reply.text(400, "Unable to parse query.");
            }
            return envelope(user, ex)
                    .error(
                            RestErrors.FAIL_PARSING.number(),
                            RestErrors.FAIL_PARSING.text(),
                            "malformed JSON: " + e.getOriginalMessage(),
                            "restd")
                    .reply(400);
        }
        Optional<Reply> served = tokenRefused ? refused(ex, user, body) : dispatch(ex, user, token, body);
        if (served.isEmpty()
                && ApiVersion.ofPath(path).isEmpty()
                && ApiVersion.ofSlurmdbPath(path).isEmpty()) {
            return unserved(path);
        }
        return served.orElseGet(() -> envelope(user, ex)
                .error(
                        RestErrors.INVALID_QUERY.number(),
                        RestErrors.INVALID_QUERY.text(),
                        "no " + ex.method() + " " + path + " here",
                        "restd")
                .reply(404));
    }

    /**
     * A 22.05 path's answer to a refused token, as slurmrestd gives it once slurmctld or
     * slurmdbd refused the token it passed on (compat 276, 277): neither is asked here.
     */
    private Optional<Reply> refused(Exchange ex, String user, Optional<JsonNode> body) {
        String path = ex.path();
        if (path.startsWith(Api38.PREFIX)) {
            return v0038.refused(ex.method(), path, body, ex.client());
        }
        if (path.startsWith(Db38.PREFIX)) {
            ErrorCode auth = ErrorCode.AUTHENTICATION_ERROR;
            AccountingSession refusing = request -> {
                throw new AccountingClient.AccountingException(auth.text(), auth.number());
            };
            return dbv0038.refused(new Db38.Call(
                    ex.method(),
                    path,
                    ex.rawQuery(),
                    RequestBody.query(ex.rawQuery()),
                    body,
                    user,
                    Optional.of(refusing),
                    request -> {
                        throw new ControllerException(ErrorCode.SOCKET_ZERO_BYTES);
                    }));
        }
        return Optional.empty();
    }

    /**
     * slurmrestd 22.05's plain-text answer to a request no endpoint serves: 405 where another
     * method is served at the path (22.05 has no {@code DELETE jobs}), else 404.
     */
    private static Reply unserved(String path) {
        boolean otherMethod = (path.startsWith(Api38.PREFIX) && Api38.servesPath(path))
                || (path.startsWith(Db38.PREFIX) && Db38.servesPath(path));
        return otherMethod ? Reply.text(405, METHOD_NOT_DEFINED) : Reply.text(404, URL_NOT_FOUND);
    }

    /** The answer of the API whose path this is; empty when none serves it. */
    private Optional<Reply> dispatch(Exchange ex, String user, String token, Optional<JsonNode> body) {
        String path = ex.path();
        Map<String, String> query = RequestBody.query(ex.rawQuery());
        if (ex.method().equals("GET") && (path.equals("/openapi/v3") || path.equals("/openapi/v3/"))) {
            return Optional.of(new Reply(200, OpenApiDocument.build()));
        }
        if (path.startsWith(Api38.PREFIX)) {
            Optional<Reply> reply = v0038.handle(ex.method(), path, body, ex.client(), sessions.forUser(user, token));
            if (reply.isPresent()) {
                return reply;
            }
        }
        if (path.startsWith(Db38.PREFIX)) {
            Optional<Reply> reply = dbv0038.handle(new Db38.Call(
                    ex.method(),
                    path,
                    ex.rawQuery(),
                    query,
                    body,
                    user,
                    sessions.accountingForUser(user, token),
                    sessions.forUser(user, token)));
            if (reply.isPresent()) {
                return reply;
            }
        }
        Optional<ApiVersion> version = ApiVersion.ofPath(path);
        if (version.isPresent()) {
            Optional<Reply> reply = versions.get(version.get())
                    .handle(new SlurmApi.Call(
                            ex.method(), path, query, body, user, ex.source(), token, sessions.forUser(user, token)));
            if (reply.isPresent()) {
                return reply;
            }
        }
        Optional<ApiVersion> dbVersion = ApiVersion.ofSlurmdbPath(path);
        if (dbVersion.isPresent()) {
            return accounting
                    .get(dbVersion.get())
                    .handle(new SlurmdbApi.Call(
                            ex.method(),
                            path,
                            query,
                            body,
                            user,
                            ex.source(),
                            sessions.accountingForUser(user, token)));
        }
        return Optional.empty();
    }

    /** The envelope of the version the path names (none: no data parser), for a refusal. */
    Envelope envelope(String user, Exchange ex) {
        String path = ex.path();
        String parser = ApiVersion.ofPath(path)
                .or(() -> ApiVersion.ofSlurmdbPath(path))
                .map(ApiVersion::dataParser)
                .orElse("");
        return new Envelope(parser, user, ex.source(), cluster);
    }
}
