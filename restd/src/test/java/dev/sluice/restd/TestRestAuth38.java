package dev.sluice.restd;

import static dev.sluice.restd.OpenApiDocs.assertValid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.common.auth.AuthException;
import dev.sluice.restd.RestFixture.Answer;
import dev.sluice.restd.auth.TokenGate;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Refused tokens on slurmrestd 22.05's paths, answered as it answers them (compat 276, 277), and
 * root's or SlurmUser's token speaking for the user {@code X-SLURM-USER-NAME} names (compat 278)
 * while a plain user's may not (compat 279). Neither daemon is asked anything for a refused
 * token.
 */
class TestRestAuth38 {
    private static final String V = "/slurm/v0.0.38/";
    private static final String DB = "/slurmdb/v0.0.38/";
    private RestFixture rest;

    @BeforeEach
    void start() throws IOException {
        OpenApiDocs.document();
        rest = new RestFixture();
    }

    @AfterEach
    void stop() {
        if (rest != null) {
            rest.close();
        }
    }

    /** alice's token, its payload changed to name root: the signature no longer matches. */
    private String forged() {
        String[] parts = rest.token("alice").split("\\.");
        String payload = new String(Base64.getUrlDecoder().decode(parts[1])).replace("alice", "root");
        return parts[0] + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(payload.getBytes()) + "."
                + parts[2];
    }

    private void assertNothingAsked() {
        assertThat(rest.controller.seen).isEmpty();
        assertThat(rest.controller.accounting.seen).isEmpty();
    }

    private static JsonNode firstError(Answer a) {
        return a.body().at("/errors/0");
    }

    @Test
    void withoutATokenTheAnswerIsPlainText() {
        for (String path : new String[] {V + "ping", V + "jobs", DB + "accounts"}) {
            for (String user : new String[] {"alice", null}) {
                Answer a = rest.send("GET", path, null, user, null);
                assertThat(a.status()).isEqualTo(401);
                assertThat(a.body().get("text").asText()).isEqualTo("Authentication failure");
            }
        }
        assertNothingAsked();
    }

    @Test
    void refusedTokensOnTheControllersPathsAreAnsweredAsAClosedConnection() {
        String expired = rest.tokens.mint("alice", Instant.now().minusSeconds(3600), Duration.ofSeconds(60));
        for (String token : new String[] {expired, forged(), "not-a-jwt"}) {
            Answer ping = rest.send("GET", V + "ping", null, "alice", token);
            assertThat(ping.status()).isEqualTo(500);
            assertThat(firstError(ping).get("description").asText()).isEqualTo("slurmctld config is unable to load");
            assertThat(firstError(ping).get("error_number").asInt()).isEqualTo(-1);
            assertThat(firstError(ping).get("source").asText()).isEqualTo("slurm_load_ctl_conf");
        }
        Answer jobs = rest.send("GET", V + "jobs", null, "root", forged());
        assertThat(jobs.status()).isEqualTo(500);
        assertThat(jobs.body().get("jobs")).isEmpty();
        assertThat(firstError(jobs).get("source").asText()).isEqualTo("slurm_load_jobs");
        Answer kill = rest.send("DELETE", V + "job/12", null, "alice", forged());
        assertThat(firstError(kill).get("description").asText())
                .isEqualTo("unable to kill JobId=12 with signal 9: Zero Bytes were transmitted or received");
        assertThat(firstError(kill).get("error_number").asInt()).isEqualTo(5005);
        Answer submit = rest.send(
                "POST",
                V + "job/submit",
                "{\"script\": \"#!/bin/sh\\ntrue\\n\", \"job\": {\"current_working_directory\": \"/tmp\"}}",
                "alice",
                forged());
        assertThat(submit.status()).isEqualTo(500);
        assertThat(firstError(submit).get("error_code").asInt()).isEqualTo(5005);
        Answer update = rest.send("POST", V + "job/12", "{\"comment\": \"x\"}", "alice", forged());
        assertThat(update.status()).isEqualTo(500);
        assertThat(firstError(update).get("error_number").asInt()).isEqualTo(1000);
        assertThat(firstError(update).get("error").asText()).isEqualTo("Unexpected message received");
        Answer unparsed = rest.send("POST", V + "job/12", "{\"bogus\": 1}", "alice", forged());
        assertThat(unparsed.status()).isEqualTo(200);
        assertThat(firstError(unparsed).get("description").asText()).isEqualTo("Unknown key \"bogus\"");
        Answer nodes = rest.send("GET", V + "nodes", null, "alice", forged());
        assertThat(firstError(nodes).get("errno").asInt()).isEqualTo(-1);
        assertThat(nodes.body().get("nodes")).isEmpty();
        Answer resv = rest.send("GET", V + "reservation/r1", null, "alice", forged());
        assertThat(firstError(resv).get("errno").asInt()).isEqualTo(2053);
        assertNothingAsked();
    }

    @Test
    void refusedTokensOnTheAccountingPathsAreAnsweredAsTheDbdsRefusal() {
        Answer users = rest.send("GET", DB + "users", null, "alice", forged());
        assertThat(users.status()).isEqualTo(500);
        assertThat(firstError(users).get("error_number").asInt()).isEqualTo(1007);
        assertThat(firstError(users).get("error").asText()).isEqualTo("Protocol authentication error");
        assertThat(firstError(users).get("source").asText()).isEqualTo("slurmdb_users_get");
        assertNothingAsked();
    }

    @Test
    void whatNoEndpointServesIsAnsweredInPlainText() {
        String token = rest.token("alice");
        String notFound = "Unable find requested URL. Please view /openapi/v3 for API reference.";
        String noMethod = "Requested REST method is not defined at URL. Please view /openapi/v3 for API reference.";
        Object[][] cases = {
            {"GET", V + "nothing", 404, notFound},
            {"DELETE", V + "jobs", 405, noMethod},
            {"POST", V + "nodes", 405, noMethod},
            {"DELETE", DB + "jobs", 405, noMethod},
            {"GET", DB + "nothing", 404, notFound},
            {"GET", "/slurm/nothing", 404, notFound},
        };
        for (Object[] c : cases) {
            Answer a = rest.send((String) c[0], (String) c[1], null, "alice", token);
            assertThat(a.status()).as("%s %s", c[0], c[1]).isEqualTo(c[2]);
            assertThat(a.body().get("text").asText()).isEqualTo(c[3]);
        }
        // With a refused token too: the path is looked for first.
        assertThat(rest.send("DELETE", V + "jobs", null, "alice", forged()).status())
                .isEqualTo(405);
        assertNothingAsked();
        Answer newer = rest.send("GET", "/slurm/v0.0.44/nothing", null, "alice", token);
        assertThat(newer.status()).isEqualTo(404);
        assertValid("v0.0.44_openapi_resp", newer.body());
    }

    @Test
    void theNewerVersionsStillAnswerWithTheirEnvelope() {
        Answer a = rest.send("GET", "/slurm/v0.0.44/jobs", null, "alice", forged());
        assertThat(a.status()).isEqualTo(401);
        assertValid("v0.0.44_openapi_resp", a.body());
        assertNothingAsked();
    }

    @Test
    void rootsTokenSpeaksForTheUserItNames() {
        String root = rest.token("root");
        Answer a = rest.send("GET", "/slurm/v0.0.44/jobs", null, "alice", root);
        assertThat(a.status()).isEqualTo(200);
        assertValid("v0.0.44_openapi_job_info_resp", a.body());
        Answer ping = rest.send("GET", V + "ping", null, "alice", root);
        assertThat(ping.status()).isEqualTo(200);
        assertThat(rest.controller.seen).hasSize(2).allSatisfy(s -> {
            assertThat(s.user()).isEqualTo("alice");
            assertThat(s.token()).isEqualTo(root);
        });
    }

    @Test
    void aPlainUsersTokenNamingAnotherUserIsRefusedAndChangesNothing() {
        String alices = rest.token("alice");
        Answer kill = rest.send("DELETE", V + "job/12", null, "bob", alices);
        assertThat(kill.status()).isEqualTo(500);
        assertThat(firstError(kill).get("error_number").asInt()).isEqualTo(5005);
        Answer asRoot = rest.send("GET", V + "jobs", null, "root", alices);
        assertThat(asRoot.status()).isEqualTo(500);
        Answer newer = rest.send("DELETE", "/slurm/v0.0.44/job/12", null, "bob", alices);
        assertThat(newer.status()).isEqualTo(401);
        assertValid("v0.0.44_openapi_resp", newer.body());
        Answer dbd = rest.send("GET", DB + "users", null, "root", alices);
        assertThat(firstError(dbd).get("error_number").asInt()).isEqualTo(1007);
        assertNothingAsked();
    }

    @Test
    void slurmUsersTokenSpeaksForOthersAndOnlyItAndRoots() throws AuthException {
        TokenGate gate = new TokenGate(Optional.of(rest.tokens), "slurm");
        Instant now = Instant.now();
        assertThat(gate.authenticate("alice", rest.token("slurm"), now)).isEqualTo("alice");
        assertThat(gate.authenticate("alice", rest.token("root"), now)).isEqualTo("alice");
        assertThat(gate.authenticate(null, rest.token("slurm"), now)).isEqualTo("slurm");
        assertThat(gate.authenticate("bob", rest.token("bob"), now)).isEqualTo("bob");
        assertThatThrownBy(() -> gate.authenticate("alice", rest.token("bob"), now))
                .isInstanceOf(AuthException.class);
        assertThatThrownBy(() -> gate.authenticate("slurm", rest.token("bob"), now))
                .isInstanceOf(AuthException.class);
        TokenGate rootOnly = new TokenGate(Optional.of(rest.tokens));
        assertThatThrownBy(() -> rootOnly.authenticate("alice", rest.token("slurm"), now))
                .isInstanceOf(AuthException.class);
    }
}
