package dev.sluice.packaging;

import static dev.sluice.restd.OpenApiDocs.assertValid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.sluice.common.auth.UserTokens;
import dev.sluice.restd.OpenApiDocs;
import dev.sluice.restd.slurm.ApiVersion;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The REST API in front of a real cluster (controller and node daemon as processes): a token
 * from {@code scontrol token}, jobs submitted, watched, updated, held, released and cancelled,
 * found in accounting, a node drained and resumed, in every data parser version (v0.0.42 to
 * v0.0.45), each answer checked against Slurm's published schema of that version. The REST daemon runs in this
 * JVM, speaking to the controller over TCP with the user's token, as sluice-restd does.
 */
class TestRestEndToEnd extends RestClusterTest {
    private static final String V = "/slurm/v0.0.44/";

    private static int submit(String script, Path out) throws Exception {
        return api.submit(ApiVersion.V0044, script, out);
    }

    private static String state(int job) throws Exception {
        return api.state(ApiVersion.V0044, job);
    }

    @Test
    void pingDiagAndListingsValidate() throws Exception {
        RestCluster.Answer ping = api.send("GET", V + "ping", null);
        assertThat(ping.status()).as(ping.body().toString()).isEqualTo(200);
        assertValid("v0.0.44_openapi_ping_array_resp", ping.body());
        assertThat(ping.body().at("/meta/client/user").asText()).isEqualTo("root");
        RestCluster.Answer diag = api.send("GET", V + "diag", null);
        assertValid("v0.0.44_openapi_diag_resp", diag.body());
        RestCluster.Answer partitions = api.send("GET", V + "partitions", null);
        assertValid("v0.0.44_openapi_partition_resp", partitions.body());
        assertThat(partitions.body().get("partitions")).isNotEmpty();
        RestCluster.Answer jobs = api.send("GET", V + "jobs", null);
        assertValid("v0.0.44_openapi_job_info_resp", jobs.body());
    }

    @Test
    void aReservationIsListedInEveryVersionAsScontrolShowsIt() throws Exception {
        String node =
                api.send("GET", V + "nodes", null).body().at("/nodes/0/name").asText();
        ClusterProcesses.Result created = cluster.command(
                "scontrol",
                "create",
                "reservation",
                "ReservationName=rest_maint",
                "StartTime=now+3600",
                "Duration=60",
                "Users=root",
                "Flags=MAINT",
                "Nodes=" + node);
        assertThat(created.exitCode()).as(created.err()).isZero();
        try {
            String shown = cluster.command("scontrol", "show", "reservation", "rest_maint")
                    .out();
            for (ApiVersion version : ApiVersion.values()) {
                String prefix = version.slurmPrefix();
                RestCluster.Answer all = api.send("GET", prefix + "reservations", null);
                assertThat(all.status()).as(all.body().toString()).isEqualTo(200);
                OpenApiDocs.of(version).assertValidFor("openapi_reservation_resp", all.body());
                RestCluster.Answer one = api.send("GET", prefix + "reservation/rest_maint", null);
                assertThat(one.status()).isEqualTo(200);
                OpenApiDocs.of(version).assertValidFor("openapi_reservation_resp", one.body());
                JsonNode r = one.body().at("/reservations/0");
                assertThat(r.get("name").asText()).isEqualTo("rest_maint");
                assertThat(r.get("node_list").asText()).isEqualTo(node);
                assertThat(shown)
                        .contains(
                                "Nodes=" + node,
                                "NodeCnt=" + r.get("node_count").asInt());
                assertThat(r.get("users").asText()).isEqualTo("root");
                assertThat(r.get("flags")).extracting(JsonNode::asText).contains("MAINT");
                assertThat(r.at("/end_time/number").asLong()
                                - r.at("/start_time/number").asLong())
                        .isEqualTo(3600);
                RestCluster.Answer missing = api.send("GET", prefix + "reservation/nosuch", null);
                assertThat(missing.status()).isEqualTo(500);
                OpenApiDocs.of(version).assertValidFor("openapi_reservation_resp", missing.body());
                assertThat(missing.body().at("/errors/0/error_number").asInt()).isEqualTo(2053);
            }
        } finally {
            cluster.command("scontrol", "delete", "reservation", "rest_maint");
        }
    }

    @Test
    void aReservationIsCreatedUpdatedAndDeletedThroughTheApiFromV0043() throws Exception {
        String node =
                api.send("GET", V + "nodes", null).body().at("/nodes/0/name").asText();
        for (ApiVersion version : ApiVersion.values()) {
            String prefix = version.slurmPrefix();
            String name = "rest_" + version.name().toLowerCase(java.util.Locale.ROOT);
            String create = "{\"name\": \"" + name + "\", \"users\": [\"root\"], \"node_list\": [\"" + node + "\"],"
                    + " \"start_time\": {\"set\": true, \"number\": "
                    + (java.time.Instant.now().getEpochSecond() + 7200)
                    + "}, \"duration\": {\"set\": true, \"number\": 30}, \"flags\": [\"MAINT\"]}";
            RestCluster.Answer created = api.send("POST", prefix + "reservation", create);
            if (version == ApiVersion.V0042) {
                assertThat(created.status()).isEqualTo(404);
                continue;
            }
            assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
            OpenApiDocs.of(version).assertValidFor("openapi_reservation_mod_resp", created.body());
            try {
                String shown =
                        cluster.command("scontrol", "show", "reservation", name).out();
                assertThat(shown).contains("Nodes=" + node, "Duration=00:30:00", "Users=root", "Flags=MAINT");
                // The same name again: an update, as slurmrestd's "create or update".
                RestCluster.Answer updated = api.send(
                        "POST",
                        prefix + "reservations",
                        "{\"reservations\": [{\"name\": \"" + name
                                + "\", \"duration\": {\"set\": true, \"number\": 45}}]}");
                assertThat(updated.status()).as(updated.body().toString()).isEqualTo(200);
                OpenApiDocs.of(version).assertValidFor("openapi_reservation_mod_resp", updated.body());
                assertThat(cluster.command("scontrol", "show", "reservation", name)
                                .out())
                        .contains("Duration=00:45:00");
                // Refused as scontrol's is: no user and no account.
                RestCluster.Answer nobody = api.send(
                        "POST",
                        prefix + "reservation",
                        "{\"name\": \"nobody\", \"duration\": 5, \"node_list\": [\"" + node + "\"]}");
                assertThat(nobody.status()).isEqualTo(500);
                OpenApiDocs.of(version).assertValidFor("openapi_reservation_mod_resp", nobody.body());
            } finally {
                RestCluster.Answer deleted = api.send("DELETE", prefix + "reservation/" + name, null);
                assertThat(deleted.status()).as(deleted.body().toString()).isEqualTo(200);
                OpenApiDocs.of(version).assertValidFor("openapi_resp", deleted.body());
            }
            assertThat(cluster.command("scontrol", "show", "reservation", name).out()
                            + cluster.command("scontrol", "show", "reservation", name)
                                    .err())
                    .contains("not found");
        }
    }

    @ParameterizedTest
    @EnumSource(ApiVersion.class)
    void jobIsSubmittedRunsAndCompletes(ApiVersion v) throws Exception {
        Path out = cluster.workDir().resolve("rest-" + UUID.randomUUID() + ".out");
        int job = api.submit(v, "#!/bin/sh\necho rest-hello\n", out);
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> api.state(v, job).equals("COMPLETED"));
        assertThat(Files.readString(out)).isEqualTo("rest-hello\n");
        ClusterProcesses.Result squeue = cluster.command("scontrol", "show", "job", "" + job);
        assertThat(squeue.out()).contains("JobName=rest").contains("TimeLimit=00:05:00");
    }

    @ParameterizedTest
    @EnumSource(ApiVersion.class)
    void jobIsCancelled(ApiVersion v) throws Exception {
        int job = api.submit(v, "#!/bin/sh\nsleep 300\n", cluster.workDir().resolve("sleep.out"));
        RestCluster.Answer cancel = api.send("DELETE", v.slurmPrefix() + "job/" + job, null);
        assertThat(cancel.status()).as(cancel.body().toString()).isEqualTo(200);
        OpenApiDocs.of(v).assertValidFor("openapi_kill_job_resp", cancel.body());
        await().atMost(Duration.ofSeconds(30)).until(() -> api.state(v, job).equals("CANCELLED"));
    }

    @ParameterizedTest
    @EnumSource(ApiVersion.class)
    void aHeldJobIsUpdatedThenReleasedAndRuns(ApiVersion v) throws Exception {
        Path out = cluster.workDir().resolve("held-" + UUID.randomUUID() + ".out");
        String body =
                "{\"script\": \"#!/bin/sh\\necho held-then-run\\n\", \"job\": {\"name\": \"held\", \"hold\": true,"
                        + " \"current_working_directory\": "
                        + RestCluster.quote(cluster.workDir().toString())
                        + ", \"standard_output\": " + RestCluster.quote(out.toString())
                        + ", \"environment\": [\"PATH=/usr/bin:/bin\"]}}";
        RestCluster.Answer submitted = api.send("POST", v.slurmPrefix() + "job/submit", body);
        assertThat(submitted.status()).as(submitted.body().toString()).isEqualTo(200);
        int job = submitted.body().get("job_id").asInt();
        assertThat(api.state(v, job)).isEqualTo("PENDING");

        RestCluster.Answer updated = api.send(
                "POST",
                v.slurmPrefix() + "job/" + job,
                "{\"job\": {\"name\": \"renamed\", \"time_limit\": {\"set\": true, \"infinite\": false, \"number\": 3}}}");
        assertThat(updated.status()).as(updated.body().toString()).isEqualTo(200);
        OpenApiDocs.of(v).assertValidFor("openapi_job_post_response", updated.body());
        ClusterProcesses.Result shown = cluster.command("scontrol", "show", "job", "" + job);
        assertThat(shown.out())
                .contains("JobName=renamed")
                .contains("TimeLimit=00:03:00")
                .contains("JobState=PENDING");

        RestCluster.Answer released = api.send("POST", v.slurmPrefix() + "job/" + job, "{\"hold\": false}");
        assertThat(released.status()).as(released.body().toString()).isEqualTo(200);
        OpenApiDocs.of(v).assertValidFor("openapi_job_post_response", released.body());
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> api.state(v, job).equals("COMPLETED"));
        assertThat(Files.readString(out)).isEqualTo("held-then-run\n");
    }

    @ParameterizedTest
    @EnumSource(ApiVersion.class)
    void nodeIsDrainedAndResumed(ApiVersion v) throws Exception {
        RestCluster.Answer nodes = api.send("GET", v.slurmPrefix() + "nodes", null);
        OpenApiDocs.of(v).assertValidFor("openapi_nodes_resp", nodes.body());
        String name = nodes.body().at("/nodes/0/name").asText();
        RestCluster.Answer drain = api.send(
                "POST", v.slurmPrefix() + "node/" + name, "{\"state\": [\"DRAIN\"], \"reason\": \"rest test\"}");
        assertThat(drain.status()).as(drain.body().toString()).isEqualTo(200);
        OpenApiDocs.of(v).assertValidFor("openapi_resp", drain.body());
        RestCluster.Answer drained = api.send("GET", v.slurmPrefix() + "node/" + name, null);
        OpenApiDocs.of(v).assertValidFor("openapi_nodes_resp", drained.body());
        assertThat(drained.body().at("/nodes/0/state").toString()).contains("DRAIN");
        assertThat(drained.body().at("/nodes/0/reason").asText()).isEqualTo("rest test");
        // drained, or draining while another test's job is still on it
        assertThat(cluster.command("sinfo", "-h", "-o", "%t").out()).matches("(drain|drng)\\n");
        RestCluster.Answer resume = api.send("POST", v.slurmPrefix() + "node/" + name, "{\"state\": [\"RESUME\"]}");
        assertThat(resume.status()).as(resume.body().toString()).isEqualTo(200);
        assertThat(api.send("GET", v.slurmPrefix() + "node/" + name, null)
                        .body()
                        .at("/nodes/0/state")
                        .toString())
                .doesNotContain("DRAIN");
    }

    /** The controller applies the commands' rules to the token's user: not root's job, not a node. */
    @Test
    void aUserChangesOnlyWhatTheCommandsLetThem() throws Exception {
        UnprivilegedUser alice = UnprivilegedUser.ensure(UnprivilegedUser.ATTACKER, stateDir);
        ClusterProcesses.Result minted = cluster.command("scontrol", "token", "username=" + alice.name());
        assertThat(minted.out()).as(minted.err()).startsWith("SLURM_JWT=");
        String aliceToken = minted.out().strip().substring("SLURM_JWT=".length());
        int rootJob = submit("#!/bin/sh\nsleep 300\n", cluster.workDir().resolve("root.out"));

        RestCluster.Answer listed = api.send("GET", V + "jobs", null, aliceToken);
        assertThat(listed.status()).isEqualTo(200);
        assertThat(listed.body().at("/meta/client/user").asText()).isEqualTo(alice.name());
        RestCluster.Answer cancel = api.send("DELETE", V + "job/" + rootJob, null, aliceToken);
        assertValid("v0.0.44_openapi_kill_job_resp", cancel.body());
        assertThat(cancel.status()).isEqualTo(500);
        assertThat(cancel.body().at("/errors/0/error_number").asInt()).isEqualTo(2002);
        assertThat(state(rootJob)).isIn("PENDING", "RUNNING");
        RestCluster.Answer rename = api.send("POST", V + "job/" + rootJob, "{\"name\": \"mine\"}", aliceToken);
        assertValid("v0.0.44_openapi_job_post_response", rename.body());
        assertThat(rename.status()).isEqualTo(500);
        // as `scontrol update JobId=` of another's job: Slurm's "Invalid user id"
        assertThat(rename.body().at("/results/0/error_code").asInt()).isEqualTo(2010);
        assertThat(cluster.command("scontrol", "show", "job", "" + rootJob).out())
                .contains("JobName=rest");
        RestCluster.Answer drain =
                api.send("POST", V + "node/" + LocalClusterLayout.nodeName(1), "{\"state\": [\"DRAIN\"]}", aliceToken);
        assertValid("v0.0.44_openapi_resp", drain.body());
        assertThat(drain.status()).isEqualTo(500);
        // as `scontrol update NodeName=` by a user: Slurm's "Invalid user id"
        assertThat(drain.body().at("/errors/0/error_number").asInt()).isEqualTo(2010);
        assertThat(api.send("GET", V + "node/" + LocalClusterLayout.nodeName(1), null)
                        .body()
                        .at("/nodes/0/state")
                        .toString())
                .doesNotContain("DRAIN");

        assertThat(api.send("DELETE", V + "job/" + rootJob, null).status()).isEqualTo(200);
    }

    /**
     * root's token speaks for the user X-SLURM-USER-NAME names, through the controller, which
     * then applies that user's rights; a user's token naming root is refused before anything.
     */
    @Test
    void rootsTokenSpeaksForTheNamedUserAndAUsersTokenForNoOneElse() throws Exception {
        UnprivilegedUser alice = UnprivilegedUser.ensure(UnprivilegedUser.ATTACKER, stateDir);
        ClusterProcesses.Result minted = cluster.command("scontrol", "token", "username=" + alice.name());
        assertThat(minted.out()).as(minted.err()).startsWith("SLURM_JWT=");
        String aliceToken = minted.out().strip().substring("SLURM_JWT=".length());
        int rootJob = submit("#!/bin/sh\nsleep 300\n", cluster.workDir().resolve("root-named.out"));

        RestCluster.Answer listed = api.sendNaming("GET", V + "jobs", api.token, alice.name());
        assertThat(listed.status()).isEqualTo(200);
        assertValid("v0.0.44_openapi_job_info_resp", listed.body());
        assertThat(listed.body().at("/meta/client/user").asText()).isEqualTo(alice.name());
        RestCluster.Answer cancel = api.sendNaming("DELETE", V + "job/" + rootJob, api.token, alice.name());
        assertValid("v0.0.44_openapi_kill_job_resp", cancel.body());
        // the controller acts as alice: not her job
        assertThat(cancel.body().at("/errors/0/error_number").asInt()).isEqualTo(2002);
        RestCluster.Answer asRoot = api.sendNaming("DELETE", V + "job/" + rootJob, aliceToken, "root");
        assertThat(asRoot.status()).isEqualTo(401);
        assertValid("v0.0.44_openapi_resp", asRoot.body());
        assertThat(state(rootJob)).isIn("PENDING", "RUNNING");

        assertThat(api.send("DELETE", V + "job/" + rootJob, null).status()).isEqualTo(200);
    }

    /** jwks=: a token an identity provider signed (RS256) works through REST and for the commands. */
    @Test
    void anOutsideIssuersTokenIsTakenByRestTheControllerAndTheDbd() throws Exception {
        SignedJWT jwt = new SignedJWT(
                new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("idp-1").build(),
                new JWTClaimsSet.Builder()
                        .issueTime(java.util.Date.from(Instant.now()))
                        .expirationTime(java.util.Date.from(Instant.now().plusSeconds(300)))
                        .claim("sun", "root")
                        .build());
        jwt.sign(new RSASSASigner(api.idp));
        String outside = jwt.serialize();
        RestCluster.Answer jobs = api.send("GET", V + "jobs", null, outside);
        assertThat(jobs.status()).as(jobs.body().toString()).isEqualTo(200);
        assertThat(jobs.body().at("/meta/client/user").asText()).isEqualTo("root");
        RestCluster.Answer accounting = api.send("GET", "/slurmdb/v0.0.44/tres", null, outside);
        assertThat(accounting.status()).as(accounting.body().toString()).isEqualTo(200);
        // Signed by a key outside the set, under the same kid: refused by the REST daemon.
        RSAKey other = new RSAKeyGenerator(2048).keyID("idp-1").generate();
        SignedJWT forged = new SignedJWT(jwt.getHeader(), jwt.getJWTClaimsSet());
        forged.sign(new RSASSASigner(other));
        assertThat(api.send("GET", V + "jobs", null, forged.serialize()).status())
                .isEqualTo(401);
    }

    @Test
    void tokenForAnotherClusterKeyIsRefused() throws Exception {
        byte[] other = new byte[32];
        new java.security.SecureRandom().nextBytes(other);
        String forged = new UserTokens(other).mint("root", Instant.now(), Duration.ofMinutes(5));
        RestCluster.Answer a = api.send("GET", V + "jobs", null, forged);
        assertThat(a.status()).isEqualTo(401);
        assertValid("v0.0.44_openapi_resp", a.body());
    }
}
